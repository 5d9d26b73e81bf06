/**
 * What a history page is made of, shared by the page codec (rollup-pages.ts), its column form
 * (page-columns.ts) and the range reads: buckets per page, section bits, entry shapes.
 */
import type { Tier } from '../../pricing/rollup-buckets.ts';
import type { SidePartial } from '../../pricing/rollups.ts';
import type { SectionReader } from '../rollup-codec.ts';

export const PAGE_BUCKETS: Readonly<Record<Tier, number>> = { '10m': 144, '1h': 168, '1d': 64 };

/** Which sections a bucket holds, as bits (pages and range reads). */
export const SECTION_BITS = { ask: 1, bid: 2, sales: 4 } as const;

/** What a page walk hands its visitor: the bucket's sections, read in order. */
export type SectionSource = Pick<SectionReader, 'side' | 'skipSide' | 'sales'>;
/** A page walk's visitor: it must read every section the bucket's bits announce. */
export type PageVisit = (bucket: number, bits: number, source: SectionSource) => void;

export type Sections = [ask: Buffer | null, bid: Buffer | null, sales: Buffer | null];
export type PageEntry = [bucket: number, ...Sections];

/** A side partial to refill section after section (a scan's reused row, a skipped side). */
export const blankSide = (): SidePartial => ({
  prices: { n: 0, sum: 0, min: 0, max: 0, sketch: [] },
  markets: [],
  lastAt: null,
});
