/**
 * `GET /api/v1/listings?market_hash_name=&sort_by=lowest_price&type=buy_now&limit=50` (key):
 * one listing observation per buy-now listing (float, paint seed and index, Doppler phase,
 * stickers, inspect link), an ask ladder per name built from those listings (a Doppler's
 * listings also build one ladder per phase-spliced name), and a follow-up for the bid ladder of
 * the cheapest listing. The page's `cursor` is not followed: the 50 cheapest listings are the
 * depth we want, and the budget goes to more items instead. Sources: `connector.ts`.
 */
import type { ListingObservation } from '../../domain/observation.ts';
import type { ConnectorRequest, PageResult, ParseContext } from '../connector.ts';
import {
  ResultBuilder,
  isRecord,
  malformedBody,
  readListing,
  readName,
} from '../formats/common.ts';
import { integerPrice } from '../formats/prices.ts';
import {
  LISTINGS_LIMIT,
  askedLimit,
  base,
  buyOrdersRequest,
  ladder,
  nameWithPhase,
  phaseOf,
  requestedItem,
} from './shared.ts';

/** The documented bare array, or the `{data, cursor}` page the web app receives. */
function readPage(body: unknown): { rows: unknown[]; cursor: string | null } | null {
  if (Array.isArray(body)) return { rows: body, cursor: null };
  if (!isRecord(body) || !Array.isArray(body.data)) return null;
  return { rows: body.data, cursor: readName(body.cursor) };
}

/** Buy-now listings still for sale; auctions (their price is a bid) and sold ones are skipped. */
function isBuyNow(row: Record<string, unknown>): boolean {
  const typeOk = row.type === undefined || row.type === 'buy_now';
  const stateOk = row.state === undefined || row.state === 'listed';
  return typeOk && stateOk;
}

function readRow(
  ctx: ParseContext,
  row: Record<string, unknown>,
  item: Record<string, unknown>,
  soldAs: string,
) {
  const fields = {
    id: row.id,
    price: row.price,
    floatValue: item.float_value,
    paintSeed: item.paint_seed,
    paintIndex: item.paint_index,
    phase: phaseOf(item),
    inspectLink: item.inspect_link,
    stickers: item.stickers,
  };
  return readListing(base(ctx, soldAs), fields, integerPrice, ctx.now);
}

type Groups = Map<string, ListingObservation[] | null>;

/** Ladders per name; a name with an unreadable listing (null) gets none: it would be partial. */
function addLadders(out: ResultBuilder, ctx: ParseContext, groups: Groups, complete: boolean) {
  for (const [name, listings] of groups) {
    if (listings === null || (listings.length === 0 && !complete)) continue;
    const levels = ladder(
      'ask',
      listings.map((listing) => ({ price: listing.price, quantity: 1 })),
    );
    const count = complete ? listings.length : null;
    const time = { at: null, kind: null };
    out.side(base(ctx, name), 'ask', { ok: true, value: levels }, count, ctx.now, time);
  }
}

export function parseListings(body: unknown, ctx: ParseContext): PageResult {
  const page = readPage(body);
  if (page === null) return malformedBody('expected an array of listings or {data: [...]}');
  const out = new ResultBuilder();
  const wanted = requestedItem(ctx);
  const groups: Groups = new Map(wanted === null ? [] : [[wanted, []]]);
  const ofWanted: ListingObservation[] = [];
  page.rows.forEach((row, index) => {
    const item = isRecord(row) ? row.item : undefined;
    const name = isRecord(item) ? readName(item.market_hash_name) : null;
    if (!isRecord(row) || !isRecord(item) || name === null) {
      return out.reject({ reason: 'malformed', detail: 'no item.market_hash_name' }, `#${index}`);
    }
    if (!isBuyNow(row)) return;
    const soldAs = nameWithPhase(name, phaseOf(item));
    const read = readRow(ctx, row, item, soldAs);
    out.add(read, `#${index}`);
    if (read.ok && name === wanted) ofWanted.push(read.value);
    for (const key of new Set([name, soldAs])) {
      const listings = groups.get(key);
      groups.set(key, read.ok && listings !== null ? [...(listings ?? []), read.value] : null);
    }
  });
  const complete = page.cursor === null && page.rows.length < askedLimit(ctx, LISTINGS_LIMIT);
  addLadders(out, ctx, groups, complete);
  return { ...out.result(), next: followUps(ctx.request, ofWanted, wanted) };
}

/** Bids for the asked name, read from its cheapest listing (CSFloat serves them per listing). */
function followUps(
  request: ConnectorRequest,
  listings: readonly ListingObservation[],
  wanted: string | null,
): ConnectorRequest[] {
  if (wanted === null) return [];
  const cheapest = [...listings].sort((a, b) => a.price - b.price)[0];
  return cheapest ? [buyOrdersRequest(request, cheapest.listingId, wanted)] : [];
}
