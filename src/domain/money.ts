/**
 * Money is integer USD cents; rates are basis points. Every rounding rule lives here.
 * FX rates are integers too: micro-USD per one major unit of the currency.
 */
export type Cents = number;
export type Bps = number;

export const BPS_DENOMINATOR = 10_000;
export const MICRO = 1_000_000;

/** Minor units per major unit for the currencies markets quote in. */
export const MINOR_UNITS: Readonly<Record<string, number>> = {
  USD: 100,
  EUR: 100,
  CNY: 100,
  GBP: 100,
  RUB: 100,
  PLN: 100,
  BRL: 100,
  CAD: 100,
  AUD: 100,
  CHF: 100,
  SEK: 100,
  NOK: 100,
  DKK: 100,
  CZK: 100,
  TRY: 100,
  JPY: 1,
};

export function isCents(value: unknown): value is Cents {
  return typeof value === 'number' && Number.isSafeInteger(value);
}

/** Half-up division of non-negative bigints. */
function divRoundHalfUp(numerator: bigint, denominator: bigint): bigint {
  return (numerator * 2n + denominator) / (denominator * 2n);
}

/**
 * Converts `amount / scale` major units of a currency to USD cents at `usdMicroPerUnit`,
 * rounding half up. Exact integer arithmetic: no float ever touches the amount.
 */
export function toUsdCents(amount: number, scale: number, usdMicroPerUnit: number): Cents {
  if (amount < 0) return -toUsdCents(-amount, scale, usdMicroPerUnit);
  const numerator = BigInt(amount) * 100n * BigInt(usdMicroPerUnit);
  const denominator = BigInt(scale) * BigInt(MICRO);
  return Number(divRoundHalfUp(numerator, denominator));
}

/** `cents * bps / 10000`, rounded half up (fees are charged on whole cents). */
export function bpsOf(cents: Cents, bps: Bps): Cents {
  return Math.floor((cents * bps + BPS_DENOMINATOR / 2) / BPS_DENOMINATOR);
}

/**
 * Spread in basis points of `divisor`, rounded half away from zero; null for a non-positive divisor.
 */
export function spreadBps(high: Cents, low: Cents, divisor: Cents): Bps | null {
  if (divisor <= 0) return null;
  const raw = ((high - low) * BPS_DENOMINATOR) / divisor;
  return Math.sign(raw) * Math.round(Math.abs(raw));
}

/**
 * Parses a decimal string or number ("12.34", 12.34, "1,234.5") into an integer count of
 * `1/scale` units. Returns null for anything that is not a finite, exactly representable decimal.
 */
export function parseDecimal(value: unknown, scale: number): number | null {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return null;
    text = value.toFixed(12);
  } else if (typeof value === 'string') {
    text = value.trim().replace(/,/g, '');
  } else return null;
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) return null;
  const digits = Math.round(Math.log10(scale));
  const fraction = (match[3] ?? '').padEnd(digits + 1, '0');
  const whole = BigInt(match[2] ?? '0') * BigInt(scale) + BigInt(fraction.slice(0, digits) || '0');
  const roundUp = Number(fraction[digits] ?? '0') >= 5 ? 1n : 0n;
  const result = Number(whole + roundUp);
  if (!Number.isSafeInteger(result)) return null;
  return match[1] === '-' ? -result : result;
}
