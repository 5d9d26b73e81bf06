/**
 * The item page's float / fade / phase buckets (CS2): per market, the buckets grouped by
 * attribute kind (float bands, fade ranges, Doppler phases, phase × float band), each with its
 * cheapest ask, listing count and the market's bid — the fields askCents, askListingCount and
 * bidCents of /terminal/api/buckets.
 */
import type { BucketsData } from './api.ts';
import { el, gridTable } from './dom.ts';
import { dollars } from './format.ts';

type Entry = BucketsData['items'][number];
type Bucket = Entry['buckets'][number];
type Range = { min: number; max: number } | null;

const GROUP_TITLES: Readonly<Record<string, string>> = {
  float: 'Float bands',
  fade: 'Fade',
  tag: 'Phase',
  'tag+float': 'Phase × float band',
};

export function bucketGroup(bucket: Bucket): string {
  return bucket.attributeTypes.join('+');
}

function groupTitle(group: string): string {
  return GROUP_TITLES[group] ?? group.replace(/\+/g, ' × ');
}

function range(value: Range, suffix = ''): string | null {
  return value ? `${value.min}–${value.max}${suffix}` : null;
}

export function bucketLabel(bucket: Bucket): string {
  const { variant, sourceTagName, float, fade } = bucket.dimensions;
  const parts = [variant ?? sourceTagName, range(float), range(fade, ' %')];
  return parts.filter((part): part is string => part !== null).join(' · ') || bucket.bucketKey;
}

/** Buckets of one market by attribute kind, in the order the API serves them. */
export function groupBuckets(buckets: readonly Bucket[]): Map<string, Bucket[]> {
  const groups = new Map<string, Bucket[]>();
  for (const bucket of buckets) {
    const group = bucketGroup(bucket);
    groups.set(group, [...(groups.get(group) ?? []), bucket]);
  }
  return groups;
}

function bucketRow(bucket: Bucket): HTMLElement {
  return el(
    'tr',
    { 'data-bucket': bucket.bucketId },
    el('td', { 'data-field': 'label' }, bucketLabel(bucket)),
    el('td', { class: 'num ask', 'data-field': 'ask' }, dollars(bucket.askCents)),
    el(
      'td',
      { class: 'num', 'data-field': 'listings' },
      bucket.askListingCount === null ? '—' : String(bucket.askListingCount),
    ),
    el('td', { class: 'num bid', 'data-field': 'bid' }, dollars(bucket.bidCents)),
  );
}

function groupTable(group: string, buckets: Bucket[]): HTMLElement {
  return gridTable(
    { class: 'grid buckets', 'data-attribute': group },
    ['Bucket', 'Ask', 'Listings', 'Bid'],
    el('tbody', {}, ...buckets.map(bucketRow)),
    groupTitle(group),
  );
}

function marketBlock(entry: Entry): HTMLElement {
  const groups = [...groupBuckets(entry.buckets)];
  return el(
    'div',
    { class: 'bucket-market', 'data-market': entry.market },
    el('h3', {}, entry.market),
    ...groups.map(([group, buckets]) => groupTable(group, buckets)),
  );
}

export function bucketsPanel(data: BucketsData): HTMLElement {
  return el(
    'section',
    { class: 'card wide', id: 'buckets' },
    el('h2', {}, 'Float / phase buckets'),
    data.items.length === 0
      ? el('p', { class: 'muted' }, 'No listings with float or phase data on the bucket markets.')
      : el('div', { class: 'bucket-markets' }, ...data.items.map(marketBlock)),
    el(
      'p',
      { class: 'muted small' },
      'Ask: cheapest listing in the bucket. Bid: the market’s best bid, which buys any copy.',
    ),
  );
}
