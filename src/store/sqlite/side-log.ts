/**
 * The write half of the SQLite latest sides: inside writeBatch's transaction, the sides that
 * change the stored state are appended to `side_log`, one blob per (game, market) of the batch
 * (side-codec.ts). What changed is decided from fingerprints in memory (side-prints.ts), loaded
 * per chunk from snapshot + log the first time the writer touches it. If another connection
 * appended to the log since (its AUTOINCREMENT sequence moved), the fingerprints are dropped and
 * loaded again. Memory the transaction changed is put back when it rolls back.
 */
import type { Game } from '../../domain/games.ts';
import type { SideSnapshot } from '../../domain/quote.ts';
import { encodeEntries, entryOf, type SideEntry } from './side-codec.ts';
import type { SideItems } from './side-prints.ts';
import { ChunkPrints, type Undo } from './side-prints.ts';
import {
  chunkEntries,
  logSeq,
  readSideState,
  type SideChunk,
  type SideStatements,
} from './side-tables.ts';

export class SideLog {
  private readonly prints = new Map<string, ChunkPrints>();
  private knownSeq = -1;
  private undo: Undo = [];
  private appended = 0;

  constructor(
    private readonly s: SideStatements,
    readonly items: SideItems,
  ) {}

  /** In the batch's transaction: appends the sides that change the stored state; their count. */
  append(sides: readonly SideSnapshot[]): number {
    if (sides.length === 0) return 0;
    this.catchUp();
    const byChunk = new Map<string, { chunk: SideChunk; entries: SideEntry[] }>();
    for (const side of sides) {
      const id = chunkId(side.game, side.market);
      const entry = entryOf(side, this.items.codeFor(side.game, side.itemId, this.undo));
      if (!this.printsOf(id, side).admit(entry, this.undo)) continue;
      let group = byChunk.get(id);
      if (group === undefined) {
        group = { chunk: { game: side.game, market: side.market }, entries: [] };
        byChunk.set(id, group);
      }
      group.entries.push({ ...entry, levels: Buffer.from(entry.levels) });
    }
    let count = 0;
    for (const { chunk, entries } of byChunk.values()) {
      const blob = encodeEntries(entries);
      const id = Number(this.s.appendLog.run(chunk.game, chunk.market, blob).lastInsertRowid);
      const seqBefore = this.knownSeq;
      this.undo.push(() => (this.knownSeq = seqBefore));
      this.knownSeq = id;
      this.appended += blob.length;
      count += entries.length;
    }
    return count;
  }

  /** The batch committed: its memory changes stand; the bytes it appended (and resets them). */
  committed(): number {
    this.undo = [];
    const bytes = this.appended;
    this.appended = 0;
    return bytes;
  }

  /** The batch rolled back: memory goes back to what the tables hold. */
  rolledBack(): void {
    for (const step of this.undo.reverse()) step();
    this.undo = [];
    this.appended = 0;
  }

  /** Bytes the fingerprints hold (for the footprint figures). */
  get bytes(): number {
    let total = 0;
    for (const prints of this.prints.values()) total += prints.bytes;
    return total;
  }

  private catchUp(): void {
    const seq = logSeq(this.s);
    if (seq === this.knownSeq) return;
    this.prints.clear();
    this.items.refresh();
    this.knownSeq = seq;
  }

  private printsOf(id: string, chunk: SideChunk): ChunkPrints {
    const held = this.prints.get(id);
    if (held !== undefined) return held;
    const prints = new ChunkPrints();
    const state = readSideState(this.s);
    for (const part of chunkEntries(this.s, chunk, state)) {
      for (const entry of part) prints.load(entry);
    }
    this.prints.set(id, prints);
    this.undo.push(() => this.prints.delete(id));
    return prints;
  }
}

function chunkId(game: Game, market: string): string {
  return `${game}\n${market}`;
}
