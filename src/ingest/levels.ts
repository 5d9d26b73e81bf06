/**
 * Price and level rules for ingest: one native price → USD cents with the sanity bounds, and a
 * raw ladder → validated levels in cents, best first, equal prices merged. A level worth less
 * than half a cent (e.g. a ¥0.03 Buff listing) cannot be priced in cents: an ask level is
 * raised to 1 cent (never shown cheaper than offered) and a bid level is dropped (never shown
 * dearer than offered); only a ladder with nothing left is refused.
 */
import type { Rejection } from '../markets/market-adapter.ts';
import type { Cents } from '../domain/money.ts';
import type { RawLevel, Side } from '../domain/observation.ts';
import type { Level } from '../domain/quote.ts';
import { convertToUsdCents, type FxTable } from './fx.ts';

/**
 * Ceiling for one unit of any item: 500,000,000 cents = $5,000,000. The dearest CS2 sales on
 * record are around $1.5M; anything far above is a unit or parsing mistake.
 */
export const PRICE_CEILING_CENTS: Cents = 500_000_000;

export type Problem = Rejection;
export type Checked<T> = { ok: true; value: T } | { ok: false; problem: Problem };

export interface PriceUnit {
  currency: string;
  scale: number;
}

const fail = (reason: Problem['reason'], detail: string) =>
  ({ ok: false, problem: { reason, detail } }) as const;

export function priceToCents(price: number, unit: PriceUnit, fx: FxTable): Checked<Cents> {
  const converted = convertToUsdCents(price, unit.scale, unit.currency, fx);
  if (!converted.ok) return fail('wrong_unit', converted.detail);
  if (price < 0) return fail('negative_price', `price ${price} is negative`);
  if (price === 0) return fail('absurd_price', 'price is 0');
  const cents = converted.cents;
  if (cents === 0) {
    return fail('absurd_price', `price ${price}/${unit.scale} ${unit.currency} rounds to 0 cents`);
  }
  if (cents > PRICE_CEILING_CENTS) {
    return fail('absurd_price', `${cents} cents is above the ${PRICE_CEILING_CENTS} ceiling`);
  }
  return { ok: true, value: cents };
}

export function isPositiveInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
}

export function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/** A positive price that converts to less than half a cent. */
function isSubCent(price: number, unit: PriceUnit, fx: FxTable): boolean {
  if (!(price > 0)) return false;
  const converted = convertToUsdCents(price, unit.scale, unit.currency, fx);
  return converted.ok && converted.cents === 0;
}

/** Validates, converts, sorts best first (asks ascending, bids descending) and merges equal prices. */
export function normaliseLevels(
  levels: readonly RawLevel[],
  side: Side,
  unit: PriceUnit,
  fx: FxTable,
): Checked<Level[]> {
  if (!Array.isArray(levels)) return fail('malformed', 'levels is not an array');
  const converted: Level[] = [];
  let dropped: Problem | null = null;
  for (const [index, level] of levels.entries()) {
    if (!isPositiveInteger(level?.quantity)) {
      return fail(
        'malformed',
        `level ${index}: quantity ${level?.quantity} is not a positive integer`,
      );
    }
    if (level.orders !== null && !isPositiveInteger(level.orders)) {
      return fail('malformed', `level ${index}: orders ${level.orders} is not a positive integer`);
    }
    if (isSubCent(level.price, unit, fx)) {
      const detail = `level ${index}: price ${level.price}/${unit.scale} ${unit.currency} is below half a cent`;
      if (side === 'bid') dropped = { reason: 'absurd_price', detail };
      else converted.push({ price: 1, quantity: level.quantity, orders: level.orders });
      continue;
    }
    const cents = priceToCents(level.price, unit, fx);
    if (!cents.ok) {
      return fail(cents.problem.reason, `level ${index}: ${cents.problem.detail}`);
    }
    converted.push({ price: cents.value, quantity: level.quantity, orders: level.orders });
  }
  if (dropped !== null && converted.length === 0) return { ok: false, problem: dropped };
  return { ok: true, value: mergeLevels(converted, side) };
}

/** Best first; levels at the same price become one (quantities and order counts added). */
export function mergeLevels(levels: readonly Level[], side: Side): Level[] {
  const sorted = [...levels].sort((a, b) =>
    side === 'ask' ? a.price - b.price : b.price - a.price,
  );
  const merged: Level[] = [];
  for (const level of sorted) {
    const last = merged[merged.length - 1];
    if (last && last.price === level.price) {
      last.quantity += level.quantity;
      last.orders =
        last.orders === null || level.orders === null ? null : last.orders + level.orders;
    } else merged.push({ ...level });
  }
  return merged;
}
