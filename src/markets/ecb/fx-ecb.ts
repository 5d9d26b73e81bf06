/**
 * The European Central Bank's euro foreign exchange reference rates
 * (https://www.ecb.europa.eu/stats/policy_and_exchange_rates/euro_reference_exchange_rates/html/index.en.html),
 * published on TARGET working days around 16:00 CET as
 * `https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml`: one `<Cube time="YYYY-MM-DD">`
 * holding `<Cube currency="USD" rate="1.0848"/>` rows, each the units of that currency per one
 * euro. No key. Rates are read as decimal strings and rebased to micro-USD per unit with exact
 * integer arithmetic (half up). RUB is not published since 1 March 2022.
 *
 * Sample:
 * <gesmes:Envelope …><gesmes:subject>Reference rates</gesmes:subject><Cube>
 *   <Cube time='2026-11-23'><Cube currency='USD' rate='1.1571'/><Cube currency='CNY'
 *   rate='8.2313'/>…</Cube></Cube></gesmes:Envelope>
 */
import { XMLParser } from 'fast-xml-parser';
import { MICRO } from '../../domain/money.ts';
import type { FxTable } from '../../domain/fx.ts';

export const ECB_DAILY_URL = 'https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml';

export class FxSourceError extends Error {}

interface Decimal {
  units: bigint;
  scale: bigint;
}

function decimal(text: unknown): Decimal | null {
  if (typeof text !== 'string') return null;
  const match = /^(\d{1,9})(?:\.(\d{1,9}))?$/.exec(text.trim());
  if (!match) return null;
  const fraction = match[2] ?? '';
  const units = BigInt(match[1]! + fraction);
  return units === 0n ? null : { units, scale: 10n ** BigInt(fraction.length) };
}

/** micro-USD per one unit of a currency quoted at `perEuro`, with USD at `usdPerEuro`. */
function microUsd(usdPerEuro: Decimal, perEuro: Decimal): number {
  const numerator = usdPerEuro.units * perEuro.scale * BigInt(MICRO);
  const denominator = usdPerEuro.scale * perEuro.units;
  return Number((numerator * 2n + denominator) / (denominator * 2n));
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : value === undefined ? [] : [value];
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}

/** The day's rates as an FX table dated at the reference date (00:00 UTC). Throws on garbage. */
export function parseEcbDaily(xml: unknown): FxTable {
  if (typeof xml !== 'string' || !xml.includes('Cube')) {
    throw new FxSourceError('ECB rates: not the eurofxref XML document');
  }
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '',
    parseAttributeValue: false,
    removeNSPrefix: true,
  });
  let document: unknown;
  try {
    document = parser.parse(xml);
  } catch (error) {
    throw new FxSourceError(`ECB rates: invalid XML (${(error as Error).message})`);
  }
  const day = record(record(record(record(document).Envelope).Cube).Cube);
  const date = typeof day.time === 'string' ? day.time : '';
  const asOf = /^\d{4}-\d{2}-\d{2}$/.test(date) ? Date.parse(`${date}T00:00:00Z`) : NaN;
  if (Number.isNaN(asOf)) throw new FxSourceError(`ECB rates: no reference date (${date})`);
  const perEuro = new Map<string, Decimal>();
  for (const row of asArray(day.Cube)) {
    const { currency, rate } = record(row);
    const value = decimal(rate);
    if (typeof currency === 'string' && /^[A-Z]{3}$/.test(currency) && value) {
      perEuro.set(currency, value);
    }
  }
  const usd = perEuro.get('USD');
  if (!usd) throw new FxSourceError(`ECB rates of ${date}: no USD rate`);
  const usdMicroPerUnit: Record<string, number> = {
    USD: MICRO,
    EUR: microUsd(usd, { units: 1n, scale: 1n }),
  };
  for (const [currency, value] of perEuro) {
    if (currency !== 'USD') usdMicroPerUnit[currency] = microUsd(usd, value);
  }
  return { asOf, source: `ECB euro reference rates of ${date}`, usdMicroPerUnit };
}

/**
 * A new table is refused when a currency both tables know moved by more than `maxMove`
 * (default 20%) against a table less than 30 days older: a day's reference rate never moves
 * like that, a unit or parsing mistake does. Returns the offending currencies.
 */
export function implausibleMoves(next: FxTable, previous: FxTable, maxMove = 0.2): string[] {
  if (next.asOf - previous.asOf > 30 * 86_400_000) return [];
  const moved: string[] = [];
  for (const [currency, rate] of Object.entries(next.usdMicroPerUnit)) {
    const before = previous.usdMicroPerUnit[currency];
    if (before !== undefined && Math.abs(rate - before) > before * maxMove) moved.push(currency);
  }
  return moved;
}
