/**
 * `GET /v1/schema/changes` (spec "Item schema"; service-conventions.md, schema): items added,
 * changed or removed strictly after `since` (ms epoch or ISO 8601, required unless a cursor is
 * given; a cursor wins). The first page fixes the sync's upper bound at the current
 * `schemaVersion`; every page of the sync reports that bound as its `schemaVersion`, and it is
 * the next sync's `since`. A removal is the item's last record with `removed: true`.
 */
import { badRequest } from '../domain/errors.ts';
import type { Game } from '../domain/games.ts';
import { sentence } from '../domain/parameter-sentences.ts';
import { parseIsoDate } from '../domain/dates.ts';
import { servedRecord, type ChangeLog, type PageRequest } from './change-log.ts';
import { decodeCursor, encodeCursor, type CursorProblem } from './cursor.ts';
import type { VersionedRecord } from './records.ts';
import { referencedBy, type SchemaRegistries } from './registries.ts';

export const CHANGES_LIMIT = { min: 1, max: 5000, default: 1000 } as const;

export interface ChangesQuery {
  since?: string;
  cursor?: string;
  limit: number;
}

export interface ChangesPage {
  schemaVersion: number;
  since: number;
  count: number;
  hasMore: boolean;
  nextCursor: string | null;
  items: VersionedRecord[];
  registries: SchemaRegistries;
}

const SINCE_MESSAGE =
  'since must be a millisecond epoch (the stored schemaVersion) or an ISO 8601 date, e.g. 2026-11-01T00:00:00Z';

const CURSOR_MESSAGES: Readonly<Record<CursorProblem, string>> = {
  malformed: 'cursor is not a cursor this service issued',
  tampered: 'cursor is not a cursor this service issued',
  other_game: 'cursor belongs to another game; start a new sync for this game',
};

/** `since` as milliseconds: digits are an epoch, anything else must be ISO 8601. */
export function parseSince(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === '') throw badRequest([sentence.required('since')]);
  if (/^[0-9]{1,16}$/.test(raw)) return Number(raw);
  try {
    return parseIsoDate(raw, 'since');
  } catch {
    throw badRequest([SINCE_MESSAGE]);
  }
}

function pageRequest(secret: Buffer, game: Game, log: ChangeLog, query: ChangesQuery): PageRequest {
  if (query.cursor !== undefined) {
    const state = decodeCursor(secret, query.cursor, game);
    if (typeof state === 'string') throw badRequest([CURSOR_MESSAGES[state]]);
    return { since: state.since, upper: state.upper, after: state.after, limit: query.limit };
  }
  const since = parseSince(query.since);
  return { since, upper: log.head(), after: null, limit: query.limit };
}

export function readChanges(
  secret: Buffer,
  game: Game,
  log: ChangeLog,
  registries: SchemaRegistries,
  query: ChangesQuery,
): ChangesPage {
  const request = pageRequest(secret, game, log, query);
  const page = log.page(request);
  const last = page.entries.at(-1);
  const nextCursor =
    page.hasMore && last
      ? encodeCursor(secret, {
          game,
          since: request.since,
          upper: request.upper,
          after: { version: last.version, id: last.id },
        })
      : null;
  const items = page.entries.map(servedRecord);
  return {
    schemaVersion: request.upper,
    since: request.since,
    count: items.length,
    hasMore: page.hasMore,
    nextCursor,
    items,
    registries: referencedBy(registries, items),
  };
}
