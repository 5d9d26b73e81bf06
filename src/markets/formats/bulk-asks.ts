/**
 * What the bulk price-list connectors share: a list of rows (an array, or an object keyed by
 * item name) in which each row becomes one ask side, its best price as a one-level ladder and
 * its listing count (rejection reasons and details as each connector wrote them before); the
 * conditional GET such a list is fetched with; and the observation base of a market's units.
 */
import type { Game } from '../../domain/games.ts';
import type { MarketId } from '../../domain/markets.ts';
import type { ObservationBase, RawLevel } from '../../domain/observation.ts';
import type { ConnectorRequest, PageResult, ParseContext } from '../connector.ts';
import {
  ResultBuilder,
  fail,
  isRecord,
  readCount,
  readName,
  topLevel,
  type PriceReader,
  type Read,
  type SourceTime,
} from './common.ts';

export const MIB = 1024 * 1024;
const NO_TIME: SourceTime = { at: null, kind: null };

/** The observation base of one market's items, in its own currency and scale. */
export type BaseOf = (ctx: { game: Game }, item: string) => ObservationBase;

export function observationBase(market: MarketId, currency: string, scale: number): BaseOf {
  return (ctx, item) => ({ game: ctx.game, market, item, currency, scale });
}

/** A whole price list: GET, revalidated with ETag / Last-Modified, 60 s, at most 32 MiB. */
export function bulkGet(
  kind: string,
  game: Game,
  path: string,
  query?: ConnectorRequest['query'],
): ConnectorRequest {
  return {
    kind,
    game,
    method: 'GET',
    path,
    ...(query ? { query } : {}),
    conditional: true,
    timeoutMs: 60_000,
    maxBytes: 32 * MIB,
  };
}

/**
 * What a row says about its item's asks: the raw best price (null or undefined: none) and the
 * listings behind it (0: an empty side whatever the price; null: unknown, the price still read).
 */
export interface AskRow {
  price: unknown;
  count: number | null;
  time?: SourceTime;
}

/** The units of a market's asks: whose observations they are and how its prices read. */
export interface AskUnits {
  base: BaseOf;
  price: PriceReader;
}

/** How rows are named: a row that is no object or has no name is refused as `${label} ${index}`. */
export interface RowNaming {
  label: string;
  /** The detail of that refusal (`no name`, `no market_hash_name`). */
  noName: string;
  name(row: Record<string, unknown>): string | null;
}

/** Rows named by one field, refused as `no ${field}` without it. */
export function nameField(label: string, field: string): RowNaming {
  return { label, noName: `no ${field}`, name: (row) => readName(row[field]) };
}

export interface AskRows extends AskUnits, RowNaming {
  /** The row's ask, or why the row is refused (under its name). */
  ask(row: Record<string, unknown>, name: string): Read<AskRow>;
}

/** The ask of a row with a price and a listing count; `refusal` is the detail when no count. */
export function askWithCount(price: unknown, count: unknown, refusal: string): Read<AskRow> {
  const listings = readCount(count);
  return listings === null
    ? fail('malformed', refusal)
    : { ok: true, value: { price, count: listings } };
}

/** Calls `each` with every row that is an object with a name; refuses the others. */
export function namedRows(
  out: ResultBuilder,
  rows: readonly unknown[],
  naming: RowNaming,
  each: (row: Record<string, unknown>, name: string, index: number) => void,
): void {
  rows.forEach((row, index) => {
    const name = isRecord(row) ? naming.name(row) : null;
    if (!isRecord(row) || name === null) {
      return out.reject({ reason: 'malformed', detail: naming.noName }, `${naming.label} ${index}`);
    }
    each(row, name, index);
  });
}

/** Adds one ask side for `name`, or the row's refusal; returns the side's levels as read. */
export function addAsk(
  out: ResultBuilder,
  units: AskUnits,
  name: string,
  row: Read<AskRow>,
  ctx: ParseContext,
): Read<RawLevel[]> {
  if (!row.ok) {
    out.reject(row.rejection, name);
    return row;
  }
  const { price, count, time = NO_TIME } = row.value;
  const levels = topLevel(price, count ?? 1, units.price);
  out.side(units.base(ctx, name), 'ask', levels, count, ctx.now, time);
  return levels;
}

/** One ask side per named row of an array. */
export function askRows(rows: readonly unknown[], reader: AskRows, ctx: ParseContext): PageResult {
  const out = new ResultBuilder();
  namedRows(out, rows, reader, (row, name) =>
    addAsk(out, reader, name, reader.ask(row, name), ctx),
  );
  return out.result();
}

export interface KeyedAsks extends AskUnits {
  /** A row under an empty key is refused as `${label}: ${noName}`. */
  label: string;
  noName: string;
  /** The row under the key `name` (anything, not only an object), or why it is refused. */
  ask(row: unknown, name: string): Read<AskRow>;
}

/** One ask side per entry of an object keyed by item name. */
export function keyedAsks(
  body: Record<string, unknown>,
  reader: KeyedAsks,
  ctx: ParseContext,
): PageResult {
  const out = new ResultBuilder();
  for (const [key, row] of Object.entries(body)) {
    const name = readName(key);
    if (name === null) out.reject({ reason: 'malformed', detail: reader.noName }, reader.label);
    else addAsk(out, reader, name, reader.ask(row, name), ctx);
  }
  return out.result();
}
