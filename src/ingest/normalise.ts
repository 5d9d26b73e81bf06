/**
 * Pure normalisation: observations in the source's units → one IngestBatch in USD cents against
 * catalog ids, plus the rejected ones with a reason. Same code for adapters and `pricing import`.
 * `ingestedAt` is stamped with `ctx.now`; latency (ingestedAt − fetchedAt) is derived on read.
 */
import type { Catalog } from '../catalog/catalog.ts';
import { DAY, iso, MINUTE } from '../domain/clock.ts';
import { isGame, type Game } from '../domain/games.ts';
import { isMarketId, type MarketId } from '../domain/markets.ts';
import type {
  BookObservation,
  ListingObservation,
  Observation,
  SaleObservation,
  SalesStatsObservation,
} from '../domain/observation.ts';
import { SALES_WINDOWS } from '../domain/observation.ts';
import {
  emptyBatch,
  type IngestBatch,
  type ListingRecord,
  type SaleRecord,
  type SalesStatsRecord,
  type SideSnapshot,
} from '../domain/quote.ts';
import type { Rejection } from '../markets/market-adapter.ts';
import type { FxTable } from './fx.ts';
import {
  isCount,
  isPositiveInteger,
  normaliseLevels,
  priceToCents,
  type Checked,
  type PriceUnit,
} from './levels.ts';
import { resolveItem } from '../catalog/resolve-item.ts';
import { mergeSameSides } from './merge-sides.ts';

/** Times later than `now` by more than this are rejected as malformed (clock skew allowance). */
export const FUTURE_TOLERANCE_MS = 5 * MINUTE;

export interface NormaliseContext {
  catalogs: Partial<Record<Game, Catalog>>;
  fx: FxTable;
  /** Becomes `ingestedAt` on every record. */
  now: number;
  /** Declared unit per market (a MarketInfo fits); observations must match it exactly. */
  expected?: Partial<Record<MarketId, PriceUnit>>;
  /** Refuse non-USD observations (`stale_fx`) when `now − fx.asOf` exceeds this. */
  fxMaxAgeMs?: number;
}

export interface NormaliseRejection extends Rejection {
  market: MarketId;
  item: string;
  /** Position of the observation in the input array. */
  index: number;
}

export interface NormaliseResult {
  batch: IngestBatch;
  rejected: NormaliseRejection[];
}

type Normalised =
  | { kind: 'side'; record: SideSnapshot }
  | { kind: 'sale'; record: SaleRecord }
  | { kind: 'listing'; record: ListingRecord }
  | { kind: 'sales_stats'; record: SalesStatsRecord };

const fail = (reason: Rejection['reason'], detail: string) =>
  ({ ok: false, problem: { reason, detail } }) as const;

export function normalise(
  observations: readonly Observation[],
  ctx: NormaliseContext,
): NormaliseResult {
  const batch = emptyBatch();
  const rejected: NormaliseRejection[] = [];
  for (const [index, observation] of observations.entries()) {
    const result = normaliseOne(observation, ctx);
    if (!result.ok) {
      const { market, item } = observation;
      rejected.push({ ...result.problem, market, item: String(item), index });
    } else if (result.value.kind === 'side') batch.sides.push(result.value.record);
    else if (result.value.kind === 'sale') batch.sales.push(result.value.record);
    else if (result.value.kind === 'listing') batch.listings.push(result.value.record);
    else (batch.salesStats ??= []).push(result.value.record);
  }
  batch.sides = mergeSameSides(batch.sides);
  return { batch, rejected };
}

function normaliseOne(observation: Observation, ctx: NormaliseContext): Checked<Normalised> {
  if (!isGame(observation.game)) return fail('malformed', `unknown game "${observation.game}"`);
  if (!isMarketId(observation.market)) {
    return fail('malformed', `unknown market "${observation.market}"`);
  }
  const unit = checkUnit(observation, ctx.fx, ctx.expected?.[observation.market]);
  if (unit) return { ok: false, problem: unit };
  const staleRates = checkFxAge(observation.currency, ctx);
  if (staleRates) return { ok: false, problem: staleRates };
  const catalog = ctx.catalogs[observation.game];
  if (!catalog) return fail('unknown_item', `no catalog loaded for ${observation.game}`);
  const item = typeof observation.item === 'string' ? resolveItem(catalog, observation.item) : null;
  if (!item) return fail('unknown_item', `"${observation.item}" is not in the catalog`);
  switch (observation.kind) {
    case 'book':
      return normaliseSide(observation, item.id, ctx);
    case 'sale':
      return normaliseSale(observation, item.id, ctx);
    case 'listing':
      return normaliseListing(observation, item.id, ctx);
    case 'sales_stats':
      return normaliseSalesStats(observation, item.id, ctx);
    default:
      return fail(
        'malformed',
        `unknown observation kind "${(observation as { kind: unknown }).kind}"`,
      );
  }
}

function checkUnit(
  observation: Observation,
  fx: FxTable,
  expected: PriceUnit | undefined,
): Rejection | null {
  const { currency, scale } = observation;
  if (!Number.isSafeInteger(scale) || scale <= 0) {
    return { reason: 'wrong_unit', detail: `scale ${scale} is not a positive integer` };
  }
  if (typeof currency !== 'string' || !Object.hasOwn(fx.usdMicroPerUnit, currency)) {
    return { reason: 'wrong_unit', detail: `no FX rate for currency "${currency}"` };
  }
  if (!expected) return null;
  if (currency !== expected.currency) {
    return {
      reason: 'wrong_unit',
      detail: `currency ${currency} but the market declares ${expected.currency}`,
    };
  }
  if (scale !== expected.scale) {
    return {
      reason: 'wrong_unit',
      detail: `scale ${scale} but the market declares ${expected.scale} (a unit mistake)`,
    };
  }
  return null;
}

function checkFxAge(currency: string, ctx: NormaliseContext): Rejection | null {
  if (ctx.fxMaxAgeMs === undefined || currency === 'USD') return null;
  const age = ctx.now - ctx.fx.asOf;
  if (age <= ctx.fxMaxAgeMs) return null;
  const days = Math.floor(age / DAY);
  return {
    reason: 'stale_fx',
    detail: `${currency} rates dated ${iso(ctx.fx.asOf).slice(0, 10)} are ${days} days old`,
  };
}

function checkTime(value: unknown, label: string, now: number): Rejection | null {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) {
    return { reason: 'malformed', detail: `${label} ${value} is not a ms epoch time` };
  }
  if (value > now + FUTURE_TOLERANCE_MS) {
    return { reason: 'malformed', detail: `${label} is ${value - now} ms in the future` };
  }
  return null;
}

function normaliseSide(
  observation: BookObservation,
  itemId: string,
  ctx: NormaliseContext,
): Checked<Normalised> {
  const { side, listingCount, sourceUpdatedAt } = observation;
  if (side !== 'ask' && side !== 'bid') return fail('malformed', `unknown side "${side}"`);
  const badTime =
    checkTime(observation.fetchedAt, 'fetchedAt', ctx.now) ??
    (sourceUpdatedAt === null ? null : checkTime(sourceUpdatedAt, 'sourceUpdatedAt', ctx.now));
  if (badTime) return { ok: false, problem: badTime };
  if (listingCount !== null && !isCount(listingCount)) {
    return fail('malformed', `listingCount ${listingCount} is not a non-negative integer`);
  }
  const levels = normaliseLevels(observation.levels, side, observation, ctx.fx);
  if (!levels.ok) return levels;
  const record: SideSnapshot = {
    game: observation.game,
    itemId,
    market: observation.market,
    side,
    levels: levels.value,
    listingCount,
    totalQuantity: levels.value.reduce((sum, level) => sum + level.quantity, 0),
    fetchedAt: observation.fetchedAt,
    ingestedAt: ctx.now,
    sourceUpdatedAt,
    sourceTimeKind: observation.sourceTimeKind ?? null,
    originalCurrency: observation.currency,
  };
  return { ok: true, value: { kind: 'side', record } };
}

function normaliseSale(
  observation: SaleObservation,
  itemId: string,
  ctx: NormaliseContext,
): Checked<Normalised> {
  const price = priceToCents(observation.price, observation, ctx.fx);
  if (!price.ok) return price;
  if (!isPositiveInteger(observation.quantity)) {
    return fail('malformed', `quantity ${observation.quantity} is not a positive integer`);
  }
  const badTime = checkTime(observation.soldAt, 'soldAt', ctx.now);
  if (badTime) return { ok: false, problem: badTime };
  const record: SaleRecord = {
    game: observation.game,
    itemId,
    market: observation.market,
    price: price.value,
    quantity: observation.quantity,
    soldAt: observation.soldAt,
    ingestedAt: ctx.now,
    originalCurrency: observation.currency,
  };
  return { ok: true, value: { kind: 'sale', record } };
}

function normaliseListing(
  observation: ListingObservation,
  itemId: string,
  ctx: NormaliseContext,
): Checked<Normalised> {
  const price = priceToCents(observation.price, observation, ctx.fx);
  if (!price.ok) return price;
  const problem = checkListingFields(observation, ctx.now);
  if (problem) return { ok: false, problem };
  const record: ListingRecord = {
    game: observation.game,
    itemId,
    market: observation.market,
    listingId: observation.listingId,
    price: price.value,
    floatValue: observation.floatValue,
    paintSeed: observation.paintSeed,
    paintIndex: observation.paintIndex,
    phase: observation.phase,
    inspectLink: observation.inspectLink,
    stickers: [...observation.stickers],
    isStatTrak: observation.isStatTrak,
    fetchedAt: observation.fetchedAt,
    ingestedAt: ctx.now,
    originalCurrency: observation.currency,
  };
  return { ok: true, value: { kind: 'listing', record } };
}

function checkListingFields(observation: ListingObservation, now: number): Rejection | null {
  const malformed = (detail: string): Rejection => ({ reason: 'malformed', detail });
  const { listingId, floatValue, paintSeed, paintIndex, stickers } = observation;
  if (typeof listingId !== 'string' || listingId === '') return malformed('listingId is empty');
  if (floatValue !== null) {
    const inRange = typeof floatValue === 'number' && floatValue >= 0 && floatValue <= 1;
    if (!inRange) return malformed(`floatValue ${floatValue} is outside [0, 1]`);
  }
  if (paintSeed !== null && !isCount(paintSeed)) return malformed(`paintSeed ${paintSeed} invalid`);
  if (paintIndex !== null && !isCount(paintIndex)) {
    return malformed(`paintIndex ${paintIndex} invalid`);
  }
  if (!Array.isArray(stickers) || !stickers.every((name) => typeof name === 'string')) {
    return malformed('stickers must be an array of names');
  }
  if (typeof observation.isStatTrak !== 'boolean') return malformed('isStatTrak is not a boolean');
  return checkTime(observation.fetchedAt, 'fetchedAt', now);
}

function normaliseSalesStats(
  observation: SalesStatsObservation,
  itemId: string,
  ctx: NormaliseContext,
): Checked<Normalised> {
  if (!SALES_WINDOWS.includes(observation.window)) {
    return fail('malformed', `unknown sales window "${observation.window}"`);
  }
  if (!isCount(observation.volume))
    return fail('malformed', `volume ${observation.volume} invalid`);
  const prices: (number | null)[] = [];
  for (const price of [observation.min, observation.max, observation.avg, observation.median]) {
    if (price === null) {
      prices.push(null);
      continue;
    }
    const cents = priceToCents(price, observation, ctx.fx);
    if (!cents.ok) return cents;
    prices.push(cents.value);
  }
  const badTime = checkTime(observation.fetchedAt, 'fetchedAt', ctx.now);
  if (badTime) return { ok: false, problem: badTime };
  const [minPrice, maxPrice, avgPrice, medianPrice] = prices as [
    number | null,
    number | null,
    number | null,
    number | null,
  ];
  const record: SalesStatsRecord = {
    game: observation.game,
    itemId,
    market: observation.market,
    window: observation.window,
    volume: observation.volume,
    minPrice,
    maxPrice,
    avgPrice,
    medianPrice,
    fetchedAt: observation.fetchedAt,
    ingestedAt: ctx.now,
    originalCurrency: observation.currency,
  };
  return { ok: true, value: { kind: 'sales_stats', record } };
}
