/**
 * FX rates for ingest: integer micro-USD per one major unit of each currency, with the date the
 * rates describe. A built-in static snapshot is the default; a JSON file can override it.
 * Conversion is exact integer arithmetic (domain/money.ts `toUsdCents`, half up).
 */
import { readFile } from 'node:fs/promises';
import type { FxTable } from '../domain/fx.ts';
import { MICRO, toUsdCents, type Cents } from '../domain/money.ts';

export type { FxTable } from '../domain/fx.ts';

/**
 * Static snapshot, NOT a live feed: approximate mid-market reference rates as of 2025-06-02,
 * entered by hand and rounded to 3-4 significant figures. Override with an FX file
 * (`loadFxTable`) for anything where a few percent matters.
 */
export const DEFAULT_FX: FxTable = Object.freeze({
  asOf: Date.parse('2025-06-02T00:00:00Z'),
  source: 'built-in static snapshot (approximate reference rates, 2025-06-02)',
  usdMicroPerUnit: Object.freeze({
    USD: 1_000_000,
    EUR: 1_140_000,
    GBP: 1_350_000,
    CNY: 139_000,
    RUB: 12_700,
    PLN: 266_000,
    BRL: 178_000,
    CAD: 730_000,
    AUD: 647_000,
    CHF: 1_215_000,
    SEK: 104_000,
    NOK: 98_500,
    DKK: 153_000,
    CZK: 45_800,
    TRY: 25_500,
    JPY: 6_950,
  }),
});

export type FxConversion =
  { ok: true; cents: Cents } | { ok: false; reason: 'wrong_unit'; detail: string };

/** `price / scale` major units of `currency` in USD cents (half up), or a `wrong_unit` rejection. */
export function convertToUsdCents(
  price: number,
  scale: number,
  currency: string,
  table: FxTable,
): FxConversion {
  if (!Number.isSafeInteger(price)) {
    return { ok: false, reason: 'wrong_unit', detail: `price ${price} is not an integer` };
  }
  if (!Number.isSafeInteger(scale) || scale <= 0) {
    return { ok: false, reason: 'wrong_unit', detail: `scale ${scale} is not a positive integer` };
  }
  const rate = Object.hasOwn(table.usdMicroPerUnit, currency)
    ? table.usdMicroPerUnit[currency]
    : undefined;
  if (rate === undefined) {
    return { ok: false, reason: 'wrong_unit', detail: `no FX rate for currency "${currency}"` };
  }
  return { ok: true, cents: toUsdCents(price, scale, rate) };
}

export class FxTableError extends Error {}

const CURRENCY_CODE = /^[A-Z]{3}$/;

/**
 * Validates an FX document: `{asOf: ISO string | ms, source?: string, usdMicroPerUnit: {EUR: 1080000, …}}`.
 * Rates are positive integers (micro-USD per major unit). Throws FxTableError listing every problem.
 */
export function parseFxTable(value: unknown, origin = 'FX table'): FxTable {
  const problems: string[] = [];
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new FxTableError(`${origin}: expected a JSON object`);
  }
  const doc = value as Record<string, unknown>;
  const asOf = parseAsOf(doc.asOf);
  if (asOf === null) problems.push('asOf must be an ISO 8601 date string or ms epoch number');
  if (doc.source !== undefined && typeof doc.source !== 'string') {
    problems.push('source must be a string');
  }
  const rates = doc.usdMicroPerUnit;
  const parsedRates: Record<string, number> = {};
  if (typeof rates !== 'object' || rates === null || Array.isArray(rates)) {
    problems.push('usdMicroPerUnit must be an object of currency code → integer micro-USD');
  } else {
    for (const [code, rate] of Object.entries(rates)) {
      if (!CURRENCY_CODE.test(code)) problems.push(`"${code}" is not a 3-letter currency code`);
      else if (!Number.isSafeInteger(rate) || (rate as number) <= 0) {
        problems.push(`rate for ${code} must be a positive integer (micro-USD per unit)`);
      } else parsedRates[code] = rate as number;
    }
    if (parsedRates.USD !== undefined && parsedRates.USD !== MICRO) {
      problems.push(`USD must be ${MICRO} (it is the base)`);
    }
  }
  if (problems.length > 0) throw new FxTableError(`${origin}: ${problems.join('; ')}`);
  return {
    asOf: asOf!,
    source: typeof doc.source === 'string' ? doc.source : origin,
    usdMicroPerUnit: { ...parsedRates, USD: MICRO },
  };
}

function parseAsOf(value: unknown): number | null {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value > 0 ? value : null;
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}/.test(value)) return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : ms;
}

/**
 * Reads an FX JSON file and lays its rates over `base` (the built-in snapshot by default), so a
 * file may update only some currencies. `asOf` and `source` come from the file.
 */
export async function loadFxTable(path: string, base: FxTable = DEFAULT_FX): Promise<FxTable> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new FxTableError(`FX file ${path}: cannot read (${(error as Error).message})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new FxTableError(`FX file ${path}: invalid JSON (${(error as Error).message})`);
  }
  const file = parseFxTable(json, `FX file ${path}`);
  return {
    asOf: file.asOf,
    source: file.source,
    usdMicroPerUnit: { ...base.usdMicroPerUnit, ...file.usdMicroPerUnit },
  };
}
