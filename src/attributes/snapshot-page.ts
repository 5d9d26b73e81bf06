/**
 * One page of the attribute snapshot (every item with buckets, ascending id, paged by cursor)
 * as prepared bytes: the envelope is written an entry at a time into a `PayloadWriter`, with
 * the event loop free between slices, so a 1,000-item page never holds the HTTP thread. The
 * fields and their order are those of `latestEnvelope`.
 */
import type { MarketId } from '../domain/markets.ts';
import { PayloadWriter, type PreparedPayload } from '../domain/prepared-payload.ts';
import { Slicer } from '../domain/slicer.ts';
import { encodeCursor } from './attribute-query.ts';
import { itemEntries, latestHead, sourceGaps, type LatestRequest } from './attribute-envelopes.ts';

export interface SnapshotPageRequest extends LatestRequest {
  /** The last item id of the previous page (null: the first page). */
  after: string | null;
  limit: number;
}

/** Index of the first id after `after` in the ascending `ids`. */
function firstAfter(ids: readonly string[], after: string | null): number {
  if (after === null) return 0;
  let low = 0;
  let high = ids.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (ids[middle]! <= after) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The envelope without its closing fields: `{…,"items":[`. */
const opening = (request: SnapshotPageRequest) =>
  `${JSON.stringify({ ...latestHead(request), items: [] }).slice(0, -2)}`;

/** Items after the cursor, `limit` of those with buckets; the cursor names the last one. */
export async function prepareSnapshotPage(
  request: SnapshotPageRequest,
  slicer = new Slicer(),
): Promise<PreparedPayload> {
  const ids = request.book.itemIds();
  const writer = new PayloadWriter();
  const covered = new Set<MarketId>();
  writer.write(opening(request));
  let served = 0;
  let entries = 0;
  let index = firstAfter(ids, request.after);
  for (; index < ids.length && served < request.limit; index += 1) {
    const item = request.catalog.byId(ids[index]!);
    const found = item ? itemEntries(request, item) : [];
    for (const entry of found) {
      writer.write(`${entries === 0 ? '' : ','}${JSON.stringify(entry)}`);
      covered.add(entry.market);
      entries += 1;
    }
    if (found.length > 0) served += 1;
    await slicer.step();
  }
  const next =
    served === request.limit && index < ids.length ? encodeCursor(ids[index - 1]!) : null;
  const closing = { nextCursor: next, sourceGaps: sourceGaps(request.scope, covered) };
  writer.write(`],${JSON.stringify(closing).slice(1)}`);
  return { ...(await writer.finish(slicer)), rowCount: served, builtAt: request.now };
}
