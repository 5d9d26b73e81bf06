/**
 * Price readers for the wire formats: decimal major units (strings or numbers) and integer
 * minor units, each rejecting non-numeric, negative and zero prices with a reason.
 */
import { parseDecimal } from '../../domain/money.ts';
import { fail, type PriceReader, type Read } from './common.ts';

function checkSign(units: number, raw: unknown): Read<number> {
  if (units < 0) return fail('negative_price', `negative price ${String(raw)}`);
  if (units === 0) return fail('absurd_price', `zero price ${String(raw)}`);
  return { ok: true, value: units };
}

const DOT = 46;
const ZERO = 48;
const NINE = 57;

/** Plain "123.45" strings read digit by digit; null sends the value to `parseDecimal`. */
function plainDecimalString(text: string, scale: number, digits: number): number | null {
  if (text.length === 0 || text.length > 15) return null;
  let whole = 0;
  let index = 0;
  for (; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code === DOT) break;
    if (code < ZERO || code > NINE) return null;
    whole = whole * 10 + (code - ZERO);
  }
  if (index === 0 || index === text.length - 1) return null;
  let fraction = 0;
  let fractionDigits = 0;
  for (index += 1; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code < ZERO || code > NINE || fractionDigits === digits) return null;
    fraction = fraction * 10 + (code - ZERO);
    fractionDigits += 1;
  }
  for (; fractionDigits < digits; fractionDigits += 1) fraction *= 10;
  return whole * scale + fraction;
}

/**
 * `parseDecimal` (money.ts) with fast paths for the common cases: numbers that scale to an
 * integer, and plain decimal strings. Anything else goes through `parseDecimal` itself.
 */
export function decimalUnits(value: unknown, scale: number, digits: number): number | null {
  if (typeof value === 'number' && Number.isFinite(value)) {
    const scaled = value * scale;
    const rounded = Math.round(scaled);
    if (Math.abs(scaled - rounded) < 1e-6 && Number.isSafeInteger(rounded)) return rounded + 0;
  } else if (typeof value === 'string') {
    const units = plainDecimalString(value, scale, digits);
    if (units !== null) return units;
  }
  return parseDecimal(value, scale);
}

/** Decimal major units (numbers or strings) to integer `1/scale` units. */
export function decimalPrice(scale: number): PriceReader {
  const digits = Math.round(Math.log10(scale));
  return (value) => {
    const units = decimalUnits(value, scale, digits);
    if (units === null) return fail('malformed', `not a decimal price: ${JSON.stringify(value)}`);
    return checkSign(units, value);
  };
}

/** Prices already in integer minor units (cents, milli); a fraction means a unit mix-up. */
export const integerPrice: PriceReader = (value) => {
  const number = typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isFinite(number)) {
    return fail('malformed', `not an integer price: ${JSON.stringify(value)}`);
  }
  if (!Number.isSafeInteger(number)) return fail('wrong_unit', `fractional minor units ${number}`);
  return checkSign(number, value);
};

/** A price that may be absent: null for null/undefined, undefined when present but unreadable. */
export function optionalPrice(value: unknown, reader: PriceReader): number | null | undefined {
  if (value === null || value === undefined) return null;
  const read = reader(value);
  return read.ok ? read.value : undefined;
}
