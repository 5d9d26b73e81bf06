/**
 * What the HTTP layer reads of the item schema (SchemaService satisfies it), the game read
 * switch, and the single-item lookup: exact name, canonical id (removed items too) or slug,
 * through the shared selector rules (409 on ambiguity, 404 when unknown).
 */
import { ambiguousItem, notFound } from '../domain/errors.ts';
import type { Game } from '../domain/games.ts';
import type { PreparedPayload } from '../domain/prepared-payload.ts';
import type { ChangeLog, LogEntry } from './change-log.ts';
import type { SchemaRegistries } from './registries.ts';
import { selectItem } from './selectors.ts';

export interface SchemaProvider {
  /** null until the first build after start (the routes answer 503). */
  snapshot(game: Game): PreparedPayload | null;
  log(game: Game): ChangeLog;
  registries(game: Game): SchemaRegistries;
  cursorSecret(): Buffer | null;
}

export interface GameReads {
  /** True while an operator has disabled `/v2` reads of the game. */
  disabled(game: Game): boolean;
}

interface LiveList {
  head: number;
  entries: (LogEntry & { marketHashName: string; slug: string })[];
}

const liveLists = new WeakMap<ChangeLog, LiveList>();

function liveEntries(log: ChangeLog): LiveList['entries'] {
  const cached = liveLists.get(log);
  if (cached && cached.head === log.head()) return cached.entries;
  const entries = [...log.latest().values()]
    .filter((entry) => !entry.removed)
    .map((entry) => ({
      ...entry,
      marketHashName: entry.record.marketHashName,
      slug: entry.record.slug,
    }));
  liveLists.set(log, { head: log.head(), entries });
  return entries;
}

export function findSchemaEntry(log: ChangeLog, selector: string): LogEntry {
  const byId = log.get(selector);
  if (byId) return byId;
  const selection = selectItem(liveEntries(log), selector);
  if (!selection) throw notFound();
  if ('candidates' in selection) {
    throw ambiguousItem(selection.candidates.map((entry) => entry.marketHashName));
  }
  return selection.item;
}
