/**
 * Steam's display strings, read strictly. With `currency=1` Steam formats money as US dollars
 * ("$1,234.56"; some wallets append " USD") and counts with comma thousands ("1,234"). Only
 * those shapes are accepted: a euro string ("1,23€"), another dollar ("CDN$ 1.23") or a
 * European grouping ("$1.234,56") is refused as `wrong_unit`, never reinterpreted
 * (markets.md, Steam: parse from `currency=1` or the cents fields, never from the display text
 * of another locale).
 */
import { fail, readCount, type PriceReader } from '../formats/common.ts';

const USD_TEXT = /^\$(\d{1,3}(?:,\d{3})+|\d+)\.(\d{2})(?: USD)?$/;
const STEAM_COUNT = /^(?:\d{1,3}(?:,\d{3})+|\d+)$/;

/** "$1,234.56" → 123456; null for any other shape. */
export function usdTextCents(text: string): number | null {
  const match = USD_TEXT.exec(text.trim());
  if (!match) return null;
  const cents = Number(match[1]!.replaceAll(',', '')) * 100 + Number(match[2]);
  return Number.isSafeInteger(cents) ? cents : null;
}

/** A positive USD display price in cents, or why not. */
export const readUsdText: PriceReader = (value) => {
  if (typeof value !== 'string' || !/\d/.test(value)) {
    return fail('malformed', `not a price text: ${JSON.stringify(value)}`);
  }
  if (/^\s*(?:-|\$\s*-)/.test(value)) return fail('negative_price', `negative price ${value}`);
  const cents = usdTextCents(value);
  if (cents === null) return fail('wrong_unit', `not a USD amount like "$1,234.56": ${value}`);
  if (cents === 0) return fail('absurd_price', `zero price ${value}`);
  return { ok: true, value: cents };
};

/** A count as a number or as Steam's text ("12,345"); null for anything else. */
export function readSteamCount(value: unknown): number | null {
  if (typeof value === 'number') return readCount(value);
  if (typeof value !== 'string' || !STEAM_COUNT.test(value.trim())) return null;
  return readCount(value.trim().replaceAll(',', ''));
}
