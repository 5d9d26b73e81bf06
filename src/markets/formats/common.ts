/**
 * Shared pieces of the wire-format parsers: field readers that never throw, a collector for
 * observations and rejections, and the book/sale/listing observation builders. Parsers know
 * units and shapes, never the catalog.
 */
import type { ParseResult, Rejection } from '../market-adapter.ts';
import type {
  BookObservation,
  ListingObservation,
  Observation,
  ObservationBase,
  RawLevel,
  SaleObservation,
  SalesStatsObservation,
  Side,
} from '../../domain/observation.ts';

export type Read<T> = { ok: true; value: T } | { ok: false; rejection: Rejection };
export type PriceReader = (value: unknown) => Read<number>;

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function fail<T>(reason: Rejection['reason'], detail: string): Read<T> {
  return { ok: false, rejection: { reason, detail } };
}

export function malformedBody(detail: string): ParseResult {
  return { observations: [], rejected: [{ reason: 'malformed', detail }] };
}

export function readName(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

/** A non-negative safe integer (numbers or integer strings). */
export function readCount(value: unknown): number | null {
  const number = typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value) : value;
  return typeof number === 'number' && Number.isSafeInteger(number) && number >= 0 ? number : null;
}

/** Unix seconds to ms epoch; null unless a finite, non-negative number. */
export function readUnixSeconds(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0
    ? Math.round(value * 1000)
    : null;
}

export interface LevelFields {
  price: string;
  quantity: string;
  orders: string | null;
}

/** Reads a ladder (any order) and returns it best first; one bad level rejects the side. */
export function readLevels(
  raw: unknown,
  side: Side,
  readPrice: PriceReader,
  fields: LevelFields,
): Read<RawLevel[]> {
  if (!Array.isArray(raw)) return fail('malformed', `${side} ladder is not an array`);
  const levels: RawLevel[] = [];
  for (const entry of raw) {
    if (!isRecord(entry)) return fail('malformed', `${side} level is not an object`);
    const price = readPrice(entry[fields.price]);
    if (!price.ok) return price;
    const quantity = readCount(entry[fields.quantity]);
    if (quantity === null || quantity === 0) {
      return fail('malformed', `${side} level quantity ${JSON.stringify(entry[fields.quantity])}`);
    }
    const orders = fields.orders === null ? null : readCount(entry[fields.orders]);
    levels.push({ price: price.value, quantity, orders });
  }
  levels.sort(side === 'ask' ? (a, b) => a.price - b.price : (a, b) => b.price - a.price);
  return { ok: true, value: levels };
}

/** A one-level side from a bulk row's best price and count (quantity at that price unknown: 1). */
export function topLevel(
  rawPrice: unknown,
  count: number,
  readPrice: PriceReader,
): Read<RawLevel[]> {
  if (count === 0 || rawPrice === null || rawPrice === undefined) return { ok: true, value: [] };
  const price = readPrice(rawPrice);
  if (!price.ok) return price;
  return { ok: true, value: [{ price: price.value, quantity: 1, orders: null }] };
}

export interface SourceTime {
  at: number | null;
  kind: string | null;
}

export function bookObservation(
  base: ObservationBase,
  side: Side,
  levels: RawLevel[],
  listingCount: number | null,
  fetchedAt: number,
  time: SourceTime,
): BookObservation {
  return {
    game: base.game,
    market: base.market,
    item: base.item,
    currency: base.currency,
    scale: base.scale,
    kind: 'book',
    side,
    levels,
    listingCount,
    fetchedAt,
    sourceUpdatedAt: time.at,
    sourceTimeKind: time.at === null ? null : time.kind,
  };
}

/** The figures of one sales-statistics window, as a market reports them. */
export type SalesStats = Pick<
  SalesStatsObservation,
  'window' | 'volume' | 'min' | 'max' | 'avg' | 'median'
>;

/**
 * A sales-statistics observation, field by field like bookObservation: spreading the base into
 * the literal instead made V8 take its slow path, some microseconds per observation.
 */
export function salesStatsObservation(
  base: ObservationBase,
  stats: SalesStats,
  fetchedAt: number,
): SalesStatsObservation {
  return {
    game: base.game,
    market: base.market,
    item: base.item,
    currency: base.currency,
    scale: base.scale,
    kind: 'sales_stats',
    window: stats.window,
    volume: stats.volume,
    min: stats.min,
    max: stats.max,
    avg: stats.avg,
    median: stats.median,
    fetchedAt,
  };
}

export function isStatTrakName(name: string): boolean {
  return name.includes('StatTrak™');
}

/** Sticker names from `[{name}]` or `["name"]`; anything else is ignored. */
export function readStickers(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  const names: string[] = [];
  for (const entry of value) {
    const name = typeof entry === 'string' ? entry : isRecord(entry) ? entry.name : null;
    if (typeof name === 'string' && name !== '') names.push(name);
  }
  return names;
}

export interface ListingFields {
  id: unknown;
  price: unknown;
  floatValue: unknown;
  paintSeed: unknown;
  paintIndex: unknown;
  phase: unknown;
  inspectLink: unknown;
  stickers: unknown;
}

function optionalFloat(value: unknown): number | null | undefined {
  if (value === null || value === undefined || value === '') return null;
  const number = typeof value === 'string' ? Number(value) : value;
  return typeof number === 'number' && Number.isFinite(number) && number >= 0 && number <= 1
    ? number
    : undefined;
}

function optionalInteger(value: unknown): number | null | undefined {
  if (value === null || value === undefined) return null;
  return readCount(value) ?? undefined;
}

/** One listing, or a rejection naming the bad field. */
export function readListing(
  base: ObservationBase,
  fields: ListingFields,
  readPrice: PriceReader,
  fetchedAt: number,
): Read<ListingObservation> {
  const id = typeof fields.id === 'number' ? String(fields.id) : readName(fields.id);
  if (id === null) return fail('malformed', `listing without id for ${base.item}`);
  const price = readPrice(fields.price);
  if (!price.ok) return price;
  const floatValue = optionalFloat(fields.floatValue);
  const paintSeed = optionalInteger(fields.paintSeed);
  const paintIndex = optionalInteger(fields.paintIndex);
  if (floatValue === undefined) return fail('malformed', `listing ${id} float out of [0, 1]`);
  if (paintSeed === undefined || paintIndex === undefined) {
    return fail('malformed', `listing ${id} paint seed/index not an integer`);
  }
  return {
    ok: true,
    value: {
      game: base.game,
      market: base.market,
      item: base.item,
      currency: base.currency,
      scale: base.scale,
      kind: 'listing',
      listingId: id,
      price: price.value,
      floatValue,
      paintSeed,
      paintIndex,
      phase: readName(fields.phase),
      inspectLink: readName(fields.inspectLink),
      stickers: readStickers(fields.stickers),
      isStatTrak: isStatTrakName(base.item),
      fetchedAt,
    },
  };
}

/** Reads one sale; `soldAtMs` is already converted to ms epoch (null when unreadable). */
export function readSale(
  base: ObservationBase,
  rawPrice: unknown,
  rawQuantity: unknown,
  soldAtMs: number | null,
  readPrice: PriceReader,
): Read<SaleObservation> {
  const price = readPrice(rawPrice);
  if (!price.ok) return price;
  const quantity = rawQuantity === undefined ? 1 : readCount(rawQuantity);
  if (quantity === null || quantity === 0) return fail('malformed', 'sale quantity');
  if (soldAtMs === null) return fail('malformed', 'sale without a readable time');
  const { game, market, item, currency, scale } = base;
  const sale: SaleObservation = {
    game,
    market,
    item,
    currency,
    scale,
    kind: 'sale',
    price: price.value,
    quantity,
    soldAt: soldAtMs,
  };
  return { ok: true, value: sale };
}

/** Accumulates a parse: keeps what read cleanly, records why the rest was rejected. */
export class ResultBuilder {
  private readonly observations: Observation[] = [];
  private readonly rejected: Rejection[] = [];

  reject(rejection: Rejection, where: string): void {
    this.rejected.push({ reason: rejection.reason, detail: `${where}: ${rejection.detail}` });
  }

  observe(observation: Observation): void {
    this.observations.push(observation);
  }

  add(read: Read<Observation>, where: string): void {
    if (read.ok) this.observations.push(read.value);
    else this.reject(read.rejection, where);
  }

  side(
    base: ObservationBase,
    side: Side,
    levels: Read<RawLevel[]>,
    listingCount: number | null,
    fetchedAt: number,
    time: SourceTime,
  ): void {
    if (!levels.ok) return this.reject(levels.rejection, `${base.item} ${side}`);
    this.observations.push(
      bookObservation(base, side, levels.value, listingCount, fetchedAt, time),
    );
  }

  result(): ParseResult {
    return { observations: this.observations, rejected: this.rejected };
  }
}
