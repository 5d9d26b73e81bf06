/**
 * `GET /marketplace-api/v2/offers?gameId=&title=&orderBy=price&orderDir=asc&limit=`: the
 * cheapest offers of the requested title as listings (swagger `GetMarketplaceOffersV2`:
 * `items[] {offerId, priceCents, createdAt, locked, attributes {title, gameId, categoryPath,
 * tradable, cs2Attributes {exterior, floatValue, paintSeed}}}, total, cursor`). `title` filters
 * by prefix, so offers of other titles are skipped; locked offers (reserved by a trade in
 * flight) cannot be bought and are skipped too. `phase` (`phase-1` … `black-pearl`, the values
 * of the documented `phase` tree filter) and `paintIndex` are read from `cs2Attributes` when
 * present, and the phase is spliced into the name.
 */
import type { PageResult, ParseContext } from '../connector.ts';
import {
  ResultBuilder,
  isRecord,
  malformedBody,
  readListing,
  readName,
} from '../formats/common.ts';
import { integerPrice } from '../formats/prices.ts';
import { phaseOfPaintIndex, withPhase } from '../naming.ts';
import { base, metaTitle } from './units.ts';

function phaseOf(cs2: Record<string, unknown>): string | null {
  return readName(cs2.phase) ?? phaseOfPaintIndex(cs2.paintIndex);
}

/**
 * Sample: {"items":[{"offerId":"f7c1b8e2-…","priceCents":1599,"createdAt":"2026-06-17T10:30:00Z",
 * "locked":false,"attributes":{"title":"AK-47 | Redline (Field-Tested)","gameId":"a8db",
 * "cs2Attributes":{"exterior":"field-tested","floatValue":0.2356,"paintSeed":412}}}],
 * "total":128,"cursor":"…"}
 */
export function parseOffers(body: unknown, ctx: ParseContext): PageResult {
  if (!isRecord(body) || !Array.isArray(body.items)) {
    return malformedBody('expected {items: [...], total, cursor}');
  }
  const wanted = metaTitle(ctx);
  const out = new ResultBuilder();
  body.items.forEach((offer: unknown, index) => {
    const where = `offer ${index}`;
    const attributes = isRecord(offer) && isRecord(offer.attributes) ? offer.attributes : null;
    const title = attributes === null ? null : readName(attributes.title);
    if (!isRecord(offer) || attributes === null || title === null) {
      return out.reject({ reason: 'malformed', detail: 'no attributes.title' }, where);
    }
    if ((wanted !== null && title !== wanted) || offer.locked === true) return;
    const cs2 = isRecord(attributes.cs2Attributes) ? attributes.cs2Attributes : {};
    const phase = phaseOf(cs2);
    const fields = {
      id: offer.offerId,
      price: offer.priceCents,
      floatValue: cs2.floatValue,
      paintSeed: cs2.paintSeed,
      paintIndex: cs2.paintIndex,
      phase,
      inspectLink: null,
      stickers: cs2.stickers,
    };
    const item = base(ctx, withPhase(title, phase));
    out.add(readListing(item, fields, integerPrice, ctx.now), `${title} ${where}`);
  });
  return out.result();
}
