/**
 * The read half of the SQLite latest sides (loadSides, streamSides): per market of the game,
 * the current snapshot's parts merged with the log after it, in one read transaction so that
 * a snapshot switching generation meanwhile is seen whole or not at all.
 */
import type Database from 'better-sqlite3';
import type { Game } from '../../domain/games.ts';
import type { SideSnapshot } from '../../domain/quote.ts';
import type { ChunkVisitor } from '../price-store.ts';
import { ChunkedVisit, stringInterner } from '../row-decoding.ts';
import { sideOf } from './side-codec.ts';
import type { SideItems } from './side-prints.ts';
import { chunkEntries, marketsOf, readSideState, type SideStatements } from './side-tables.ts';

/** Hands every current side of the game to `visit`, `chunkSize` at a time; the count. */
export function streamStoredSides(
  db: Database.Database,
  s: SideStatements,
  items: SideItems,
  game: Game,
  visit: ChunkVisitor<SideSnapshot>,
  chunkSize: number,
): number {
  return db.transaction(() => {
    items.refresh();
    const state = readSideState(s);
    const intern = stringInterner();
    const chunks = new ChunkedVisit<SideSnapshot>(visit, chunkSize);
    for (const market of marketsOf(s, game, state)) {
      const where = { game, market: intern(market) };
      for (const part of chunkEntries(s, where, state, intern)) {
        for (const entry of part) chunks.push(sideOf(entry, where, items.nameOf(entry.key >>> 1)));
      }
    }
    return chunks.finish();
  })();
}
