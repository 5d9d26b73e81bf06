/**
 * The versioned fee model: per market the seller fee, buyer fee (bps), flat withdrawal fee
 * (cents) and whether proceeds are cash, each with its source. The built-in table is
 * `2026-11` (fees-2026-11.ts); `loadFeeModel(path)` merges a JSON override file over it:
 *
 *   { "version": "2026-11-acme",
 *     "markets": { "skinport": { "sellerFeeBps": 800,
 *                                "sources": { "sellerFeeBps": { "source": "contract", "assumed": false } } } } }
 *
 * An overridden number without its own source is attributed to the file and not assumed.
 */
import { readFileSync } from 'node:fs';
import { isMarketId, WALLET_MARKET_ID, type MarketId } from '../domain/markets.ts';
import { BPS_DENOMINATOR } from '../domain/money.ts';
import { FEE_MODEL_2026_11 } from './fees-2026-11.ts';
import { FEE_FIELDS, type FeeField, type FeeModel, type MarketFees } from './fee-model.ts';

export { FEE_FIELDS } from './fee-model.ts';
export type { FeeField, FeeModel, FeeSource, MarketFees } from './fee-model.ts';

export const DEFAULT_FEE_MODEL: FeeModel = FEE_MODEL_2026_11;

export function feesFor(model: FeeModel, market: MarketId): MarketFees {
  return model.markets[market];
}

/** The built-in model, or the built-in model with the JSON file at `path` merged over it. */
/**
 * The one definition of a cash market: its sale proceeds can be withdrawn as cash, as the fee
 * model says (`cashWithdrawable`); wallet credit (the Steam Community Market) never is, whatever
 * a fee file says. The best-bid rule and the stored bid history read the built-in model; the
 * arbitrage sell side reads the operator's.
 */
export function isCashMarket(market: MarketId, model: FeeModel = DEFAULT_FEE_MODEL): boolean {
  return market !== WALLET_MARKET_ID && feesFor(model, market).cashWithdrawable;
}

export function loadFeeModel(path?: string): FeeModel {
  if (!path) return DEFAULT_FEE_MODEL;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new Error(`fee model file ${path}: cannot read (${(error as Error).message})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new Error(`fee model file ${path}: invalid JSON (${(error as Error).message})`);
  }
  return applyFeeOverrides(DEFAULT_FEE_MODEL, json, `override file ${path}`);
}

/** Validates `override` and merges it over `base`; throws one Error listing every problem. */
export function applyFeeOverrides(base: FeeModel, override: unknown, origin: string): FeeModel {
  const problems: string[] = [];
  if (!isRecord(override)) throw new Error(`${origin}: expected a JSON object`);
  for (const key of Object.keys(override)) {
    if (key !== 'version' && key !== 'markets') problems.push(`unknown field "${key}"`);
  }
  const version = override.version ?? `${base.version}+custom`;
  if (typeof version !== 'string' || version.trim() === '') {
    problems.push('version must be a non-empty string');
  }
  const markets: Record<MarketId, MarketFees> = { ...base.markets };
  const entries = override.markets ?? {};
  if (!isRecord(entries)) problems.push('markets must be an object keyed by market id');
  else {
    for (const [id, entry] of Object.entries(entries)) {
      if (!isMarketId(id)) {
        problems.push(`markets.${id}: unknown market id`);
        continue;
      }
      const merged = mergeMarket(markets[id], entry, `markets.${id}`, origin, problems);
      if (merged) markets[id] = merged;
    }
  }
  if (problems.length > 0) throw new Error(`${origin}: ${problems.join('; ')}`);
  return { version: String(version), markets };
}

function mergeMarket(
  base: MarketFees,
  entry: unknown,
  at: string,
  origin: string,
  problems: string[],
): MarketFees | null {
  if (!isRecord(entry)) {
    problems.push(`${at} must be an object`);
    return null;
  }
  const out: MarketFees = { ...base, sources: { ...base.sources } };
  for (const key of Object.keys(entry)) {
    if (key !== 'sources' && !(FEE_FIELDS as readonly string[]).includes(key)) {
      problems.push(`${at}: unknown field "${key}"`);
    }
  }
  for (const field of FEE_FIELDS) {
    if (!(field in entry)) continue;
    const problem = checkField(field, entry[field]);
    if (problem) problems.push(`${at}.${field} ${problem}`);
    else {
      Object.assign(out, { [field]: entry[field] });
      out.sources[field] = { source: origin, assumed: false };
    }
  }
  mergeSources(out, entry.sources, `${at}.sources`, problems);
  return out;
}

function checkField(field: FeeField, value: unknown): string | null {
  if (field === 'cashWithdrawable') return typeof value === 'boolean' ? null : 'must be a boolean';
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    return 'must be a non-negative integer';
  }
  if (field !== 'withdrawalFlatCents' && value > BPS_DENOMINATOR) {
    return `must be at most ${BPS_DENOMINATOR} bps`;
  }
  return null;
}

function mergeSources(out: MarketFees, sources: unknown, at: string, problems: string[]): void {
  if (sources === undefined) return;
  if (!isRecord(sources)) {
    problems.push(`${at} must be an object`);
    return;
  }
  for (const [field, value] of Object.entries(sources)) {
    if (!(FEE_FIELDS as readonly string[]).includes(field)) {
      problems.push(`${at}: unknown field "${field}"`);
    } else if (
      !isRecord(value) ||
      typeof value.source !== 'string' ||
      typeof value.assumed !== 'boolean'
    ) {
      problems.push(`${at}.${field} must be {"source": string, "assumed": boolean}`);
    } else {
      out.sources[field as FeeField] = { source: value.source, assumed: value.assumed };
    }
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
