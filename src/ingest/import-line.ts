/**
 * Strict parsing of one line of the public NDJSON import format into an Observation.
 * Prices are integers in MINOR units of the line's currency (scale from MINOR_UNITS);
 * times are ISO 8601 with a zone. Structure and types are checked here; value rules (negative
 * prices, float range, unknown items) are left to normalise, exactly as for market adapters.
 */
import { isGame, type Game } from '../domain/games.ts';
import { MARKETS_BY_GAME, isMarketId, type MarketId } from '../domain/markets.ts';
import { MINOR_UNITS } from '../domain/money.ts';
import type { Observation, RawLevel } from '../domain/observation.ts';

export type ParsedLine = { ok: true; observation: Observation } | { ok: false; reason: string };

class LineError extends Error {}

type Json = Record<string, unknown>;

const COMMON = ['kind', 'game', 'market', 'item', 'currency'];
const ALLOWED: Readonly<Record<string, readonly string[]>> = {
  book: [
    ...COMMON,
    'side',
    'fetchedAt',
    'levels',
    'listingCount',
    'sourceUpdatedAt',
    'sourceTimeKind',
  ],
  sale: [...COMMON, 'price', 'soldAt', 'quantity'],
  listing: [
    ...COMMON,
    ...['listingId', 'price', 'fetchedAt', 'floatValue', 'paintSeed', 'paintIndex', 'phase'],
    ...['inspectLink', 'stickers', 'isStatTrak'],
  ],
};
const LEVEL_FIELDS = ['price', 'quantity', 'orders'];

export function parseImportLine(text: string): ParsedLine {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, reason: `invalid JSON (${(error as Error).message})` };
  }
  try {
    return { ok: true, observation: toObservation(value) };
  } catch (error) {
    if (error instanceof LineError) return { ok: false, reason: error.message };
    throw error;
  }
}

function toObservation(value: unknown): Observation {
  const doc = asObject(value, 'the line');
  const kind = doc.kind;
  if (kind !== 'book' && kind !== 'sale' && kind !== 'listing') {
    throw new LineError(`kind must be "book", "sale" or "listing", got ${show(kind)}`);
  }
  rejectUnknownFields(doc, ALLOWED[kind]!, 'line');
  const game = doc.game;
  if (!isGame(game)) throw new LineError(`unknown game ${show(game)} (cs2 or rust)`);
  const base = {
    game,
    market: readMarket(doc.market, game),
    item: nonEmptyString(doc, 'item'),
    ...readCurrency(doc.currency),
  };
  if (kind === 'book') {
    const side = doc.side;
    if (side !== 'ask' && side !== 'bid') throw new LineError(`side must be "ask" or "bid"`);
    const sourceUpdatedAt = optional(doc, 'sourceUpdatedAt', isoTime);
    return {
      ...base,
      kind,
      side,
      levels: readLevels(doc.levels),
      listingCount: optional(doc, 'listingCount', integer),
      fetchedAt: isoTime(doc, 'fetchedAt'),
      sourceUpdatedAt,
      sourceTimeKind: optional(doc, 'sourceTimeKind', nonEmptyString),
    };
  }
  if (kind === 'sale') {
    const quantity = optional(doc, 'quantity', integer) ?? 1;
    return {
      ...base,
      kind,
      price: integer(doc, 'price'),
      quantity,
      soldAt: isoTime(doc, 'soldAt'),
    };
  }
  return {
    ...base,
    kind,
    listingId: nonEmptyString(doc, 'listingId'),
    price: integer(doc, 'price'),
    floatValue: optional(doc, 'floatValue', finiteNumber),
    paintSeed: optional(doc, 'paintSeed', integer),
    paintIndex: optional(doc, 'paintIndex', integer),
    phase: optional(doc, 'phase', nonEmptyString),
    inspectLink: optional(doc, 'inspectLink', nonEmptyString),
    stickers: readStickers(doc.stickers),
    isStatTrak: optional(doc, 'isStatTrak', boolean) ?? false,
    fetchedAt: isoTime(doc, 'fetchedAt'),
  };
}

function readMarket(value: unknown, game: Game): MarketId {
  if (typeof value !== 'string' || !isMarketId(value)) {
    throw new LineError(`unknown market ${show(value)}`);
  }
  if (!MARKETS_BY_GAME[game].includes(value)) {
    throw new LineError(`market "${value}" does not trade ${game} items`);
  }
  return value;
}

function readCurrency(value: unknown): { currency: string; scale: number } {
  const scale =
    typeof value === 'string' && Object.hasOwn(MINOR_UNITS, value) ? MINOR_UNITS[value] : undefined;
  if (scale === undefined) {
    const known = Object.keys(MINOR_UNITS).join(', ');
    throw new LineError(`unknown currency ${show(value)} (one of ${known})`);
  }
  return { currency: value as string, scale };
}

function readLevels(value: unknown): RawLevel[] {
  if (!Array.isArray(value)) throw new LineError('levels must be an array');
  return value.map((entry, index) => {
    const where = `levels[${index}]`;
    const level = asObject(entry, where);
    rejectUnknownFields(level, LEVEL_FIELDS, where);
    return {
      price: integer(level, 'price', where),
      quantity: integer(level, 'quantity', where),
      orders: optional(level, 'orders', (doc, key) => integer(doc, key, where)),
    };
  });
}

function readStickers(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || !value.every((name) => typeof name === 'string')) {
    throw new LineError('stickers must be an array of strings');
  }
  return value;
}

function asObject(value: unknown, what: string): Json {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new LineError(`${what} must be a JSON object`);
  }
  return value as Json;
}

function rejectUnknownFields(doc: Json, allowed: readonly string[], where: string): void {
  for (const key of Object.keys(doc)) {
    if (!allowed.includes(key)) throw new LineError(`unknown field "${key}" in ${where}`);
  }
}

/** A missing or null optional field reads as null. */
function optional<T>(doc: Json, key: string, read: (doc: Json, key: string) => T): T | null {
  return doc[key] === undefined || doc[key] === null ? null : read(doc, key);
}

function label(key: string, where?: string): string {
  return where ? `${where}.${key}` : key;
}

function integer(doc: Json, key: string, where?: string): number {
  const value = doc[key];
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) {
    throw new LineError(`${label(key, where)} must be an integer, got ${show(value)}`);
  }
  return value;
}

function finiteNumber(doc: Json, key: string): number {
  const value = doc[key];
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new LineError(`${key} must be a number, got ${show(value)}`);
  }
  return value;
}

function boolean(doc: Json, key: string): boolean {
  const value = doc[key];
  if (typeof value !== 'boolean') throw new LineError(`${key} must be true or false`);
  return value;
}

function nonEmptyString(doc: Json, key: string): string {
  const value = doc[key];
  if (typeof value !== 'string' || value.trim() === '') {
    throw new LineError(`${key} must be a non-empty string, got ${show(value)}`);
  }
  return value;
}

const ISO_TIME =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})$/;

/** ISO 8601 date-time with a zone (`Z` or `±hh:mm`) and a real calendar date. */
function isoTime(doc: Json, key: string): number {
  const value = doc[key];
  const match = typeof value === 'string' ? ISO_TIME.exec(value) : null;
  const ms = match ? Date.parse(value as string) : NaN;
  if (!match || Number.isNaN(ms) || !isRealDate(match)) {
    throw new LineError(`${key} must be an ISO 8601 time with a zone, got ${show(value)}`);
  }
  return ms;
}

function isRealDate(match: RegExpExecArray): boolean {
  const [year, month, day, hour, minute, second] = match
    .slice(1, 7)
    .map((part) => Number(part ?? 0));
  const daysInMonth = new Date(Date.UTC(year!, month!, 0)).getUTCDate();
  return (
    month! >= 1 &&
    month! <= 12 &&
    day! >= 1 &&
    day! <= daysInMonth &&
    hour! <= 23 &&
    minute! <= 59 &&
    second! <= 59
  );
}

function show(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
