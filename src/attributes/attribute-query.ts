/**
 * Query rules of the attribute routes, checked before any read: the `attributes` CSV (default
 * `float` only), the snapshot cursor (opaque: base64url of the last item id served), bucket
 * ids, and the history window (default the last 7 days; `granularity` 10m / 1h / 1d, by default
 * the finest whose window fits: 10m up to 7 days, 1h up to 180 days, else 1d). A window over
 * 10,000 buckets of its granularity is refused (e.g. more than about 69 days at 10m).
 */
import { DAY } from '../domain/clock.ts';
import { badRequest } from '../domain/errors.ts';
import { autoTier, type Tier } from '../pricing/rollup-buckets.ts';
import { parseDate } from '../domain/dates.ts';
import { MAX_ATTRIBUTE_BUCKETS, windowBuckets } from '../store/bucket-history.ts';
import { parseBucketId, type ParsedBucketId } from './bucket-key.ts';
import { ATTRIBUTES, type Attribute } from './buckets.ts';

export const DEFAULT_ATTRIBUTE_WINDOW_MS = 7 * DAY;
export const MAX_BUCKET_IDS = 20;

const csv = (raw: string) =>
  raw
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part.length > 0);

export function parseAttributes(raw: string | undefined): ReadonlySet<Attribute> {
  if (raw === undefined) return new Set(['float']);
  const names = csv(raw);
  const wrong = names.filter((name) => !(ATTRIBUTES as readonly string[]).includes(name));
  if (names.length === 0 || wrong.length > 0) {
    throw badRequest([`attributes must be a comma-separated list of: ${ATTRIBUTES.join(', ')}`]);
  }
  return new Set(names as Attribute[]);
}

export function encodeCursor(lastItemId: string): string {
  return Buffer.from(JSON.stringify({ after: lastItemId })).toString('base64url');
}

/** The item id a cursor continues after; 400 for anything this API did not hand out. */
export function decodeCursor(cursor: string | undefined): string | null {
  if (cursor === undefined) return null;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    const after = (parsed as { after?: unknown } | null)?.after;
    if (typeof after === 'string' && after.length > 0) return after;
  } catch {
    // falls through to the 400 below
  }
  throw badRequest(['cursor must be a nextCursor value from a previous response']);
}

export function parseBucketIds(
  bucketId: string | undefined,
  bucketIds: string | undefined,
): ParsedBucketId[] {
  const ids = [
    ...new Set([...(bucketId === undefined ? [] : [bucketId]), ...csv(bucketIds ?? '')]),
  ];
  if (ids.length === 0) throw badRequest(['bucketId or bucketIds is required']);
  if (ids.length > MAX_BUCKET_IDS) {
    throw badRequest([`bucketIds must not name more than ${MAX_BUCKET_IDS} buckets`]);
  }
  const wrong = ids.filter((id) => parseBucketId(id) === null);
  if (wrong.length > 0) {
    throw badRequest([
      `bucketId is not a bucket id (market:canonicalItemId:bucketKey): ${wrong.join(', ')}`,
    ]);
  }
  return ids.map((id) => parseBucketId(id)!);
}

export interface AttributeWindow {
  fromMs: number;
  toMs: number;
  tier: Tier;
}

export function parseWindow(
  query: { from?: string; to?: string; granularity?: Tier },
  now: number,
): AttributeWindow {
  const toMs = query.to === undefined ? now : parseDate(query.to, 'to', now);
  const fromMs =
    query.from === undefined
      ? toMs - DEFAULT_ATTRIBUTE_WINDOW_MS
      : parseDate(query.from, 'from', now);
  if (fromMs > toMs) throw badRequest(['from must not be after to']);
  const tier = query.granularity ?? autoTier(fromMs, toMs);
  const buckets = windowBuckets(fromMs, toMs, tier);
  if (buckets > MAX_ATTRIBUTE_BUCKETS) {
    throw badRequest([
      `the window covers ${buckets} buckets of ${tier}; at most ${MAX_ATTRIBUTE_BUCKETS}: narrow from/to or use a coarser granularity`,
    ]);
  }
  return { fromMs, toMs, tier };
}
