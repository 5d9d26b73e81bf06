import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { deflateRawSync } from 'node:zlib';
import fc from 'fast-check';
import { HOUR, MINUTE } from '../../domain/clock.ts';
import type { MarketId } from '../../domain/markets.ts';
import type { SaleRecord } from '../../domain/quote.ts';
import { TIER_MS, type Tier } from '../../pricing/rollup-buckets.ts';
import { MemoryRollups } from '../../pricing/rollup-memory.ts';
import { side } from '../../pricing/snapshot-fixtures.ts';
import { encodeSales, encodeSide, RollupCodecError } from '../rollup-codec.ts';
import { toColumns } from './page-columns.ts';
import { PAGE_BUCKETS, type PageEntry, type SectionSource } from './page-format.ts';
import { encodePage, pageEntries, walkPage } from './rollup-pages.ts';

const MARKETS: MarketId[] = ['steamcommunity', 'skinport', 'csfloat', 'tradeit-trade'];
/** Column pages: of earlier releases (a bid tally's top from the minimum), and since issue 31. */
const [COLUMNS_MARK, TOP_FROM_MAX_MARK] = [0x07, 0x06];
/** A page of 12 buckets (two markets' bids in a bucket) as releases before issue 31 wrote it. */
const PINNED_PAGE =
  'B52NyQ0CMQxFYydxWMyEJay3HNzHnKeINJAmpjFEC1TAiRs9IJQwaObM+9KXvmQ9366P98uwmsAEY9zThxhSplZaEaHvCWGFoDIsBj2GYQJbmi9WzWa7P5wv7u5TDDGQSHH+adTGzZbs17twPLGxgJZQk9OmUZ3qelBDlW8pp/wTAwJgKUIVUFnSlQ8=';
/** The same page as encodePage writes it since issue 31. */
const PINNED_TOP_FROM_MAX_PAGE =
  'Bp2NyQ0CMQxFYydxWMyEJay3HNzHnKeINJAmpjFEC1TAiRs9IJQwaObM+9KXvmQ9366P98uwmsAEY9zThxhSplZaEaHvCWGFoDIsBj2GYQJbmi9WzWa7P5wv7u5TDDGQSHH+adTGzZbs17twPLGxgJZQk9Om6VSnVA9DlW8pp/wTAwJgKUIVUFnSlQ8=';
const columnPage = (columns: Uint8Array) =>
  Buffer.concat([Buffer.of(TOP_FROM_MAX_MARK), deflateRawSync(columns)]);

const observation = fc.record({
  kind: fc.constantFrom('ask', 'bid'),
  market: fc.constantFrom(...MARKETS),
  price: fc.oneof(fc.integer({ min: 0, max: 300 }), fc.integer({ min: 0, max: 2 ** 40 })),
  size: fc.nat(100_000),
  offset: fc.nat(6 * HOUR - 1),
  sold: fc.nat(3),
});
type Observation = typeof observation extends fc.Arbitrary<infer T> ? T : never;

/** The entries a page of the first period would hold for `observations`, per series. */
function pagesOf(observations: readonly Observation[], tier: Tier): PageEntry[][] {
  const memory = new MemoryRollups();
  for (const entry of [...observations].sort((a, b) => a.offset - b.offset)) {
    const spec = {
      market: entry.market,
      prices: [entry.price],
      fetchedAt: entry.offset,
      quantity: 1 + (entry.size % 7),
      listingCount: entry.size,
    };
    const sales = Array.from({ length: entry.sold }, (_, index): SaleRecord => ({
      game: 'cs2',
      itemId: 'item-1',
      market: entry.market,
      price: entry.price + index,
      quantity: 1 + index,
      soldAt: entry.offset,
      ingestedAt: entry.offset,
      originalCurrency: 'USD',
    }));
    memory.record([side(entry.kind, spec)], sales);
  }
  return [null, ...MARKETS].map((market) =>
    memory
      .read({ game: 'cs2', itemId: 'item-1', market }, tier, 0, PAGE_BUCKETS[tier] * TIER_MS[tier])
      .map((row): PageEntry => {
        const ask = row.ask && encodeSide('ask', row.ask, row.start);
        const bid = row.bid && encodeSide('bid', row.bid, row.start);
        return [row.start / TIER_MS[tier], ask, bid, row.sales && encodeSales(row.sales)];
      }),
  );
}

function rowMajor(entries: readonly PageEntry[]): Buffer {
  let previous = -1;
  const parts: Buffer[] = [];
  for (const [bucket, ask, bid, sales] of entries) {
    parts.push(Buffer.of(bucket - previous - 1, (ask ? 1 : 0) | (bid ? 2 : 0) | (sales ? 4 : 0)));
    for (const section of [ask, bid, sales]) if (section) parts.push(section);
    previous = bucket;
  }
  return Buffer.concat(parts);
}

/** Every bucket a walk hands over, decoded; odd buckets without sketches, some sides skipped. */
function walked(tier: Tier, page: Uint8Array): unknown[] {
  const out: unknown[] = [];
  const read = (bucket: number, bits: number, source: SectionSource) => {
    const start = bucket * TIER_MS[tier];
    const odd = bucket % 2 === 1;
    const side = (name: 'ask' | 'bid', bit: number) => {
      if (!(bits & bit)) return null;
      if (odd && (name === 'bid' || bucket % 4 === 3)) return source.skipSide(name);
      return source.side(name, start, undefined, !odd);
    };
    out.push([bucket, side('ask', 1), side('bid', 2), bits & 4 ? source.sales() : null]);
  };
  walkPage(tier, 0, page, read);
  return out;
}

describe('rollup pages', () => {
  test('any page of codec sections reads back exactly, in either form', () => {
    let inColumns = 0;
    fc.assert(
      fc.property(
        fc.array(observation, { minLength: 1, maxLength: 60 }),
        fc.constantFrom<Tier>('10m', '1h'),
        (observations, tier) => {
          for (const entries of pagesOf(observations, tier)) {
            if (entries.length === 0) continue;
            const page = encodePage(tier, 0, entries);
            if (page[0] === TOP_FROM_MAX_MARK) inColumns += 1;
            assert.deepEqual(pageEntries(tier, 0, page), entries);
            const rows = deflateRawSync(rowMajor(entries));
            assert.deepEqual(
              walked(tier, page),
              walked(tier, rows),
              'reads from either form agree',
            );
            const columns = toColumns(rowMajor(entries));
            assert.deepEqual(pageEntries(tier, 0, columnPage(columns)), entries);
          }
        },
      ),
      { numRuns: 300 },
    );
    assert.ok(inColumns > 0, 'some pages were stored in column form');
  });

  test('pages of the row-major form (written before columns) still read', () => {
    const [entries] = pagesOf(
      [0, 1, 2, 3].map((index) => ({
        kind: 'ask',
        market: 'skinport',
        price: 1000 + index * 37,
        size: 3,
        offset: index * 10 * MINUTE,
        sold: 1,
      })),
      '10m',
    );
    const old = deflateRawSync(rowMajor(entries!));
    assert.deepEqual(pageEntries('10m', 0, old), entries);
  });

  test('a body off the codec rules is kept in the row-major form; damaged columns are refused', () => {
    const [entries] = pagesOf(
      [500, 900, 1300].map((price, index) => ({
        kind: 'ask',
        market: 'csfloat',
        price,
        size: 1,
        offset: index * MINUTE,
        sold: 0,
      })),
      '10m',
    );
    const body = rowMajor(entries!);
    const columns = toColumns(body);
    const truncated = columnPage(columns.subarray(0, columns.length - 1));
    assert.throws(() => pageEntries('10m', 0, truncated), RollupCodecError);
    /** Gap, bits, min (2 bytes), max − min (2 bytes), then sum − n·min's low byte. */
    const sumAt = 6;
    const changed = Buffer.from(body);
    changed[sumAt] = changed[sumAt]! ^ 1;
    const implied = pageEntries('10m', 0, columnPage(toColumns(changed)));
    assert.deepEqual(implied, entries, 'the column form implies the sum the bins hold');
    const page = encodePage('10m', 0, pageEntries('10m', 0, deflateRawSync(changed)));
    assert.notEqual(page[0], TOP_FROM_MAX_MARK, 'kept in the row-major form');
    assert.deepEqual(pageEntries('10m', 0, page), pageEntries('10m', 0, deflateRawSync(changed)));
  });

  test('the bytes of a column page stay as stored', () => {
    const [entries] = pagesOf(
      Array.from({ length: 24 }, (_, index) => ({
        kind: index % 4 < 2 ? 'bid' : 'ask',
        market: index % 2 === 1 ? 'csfloat' : 'skinport',
        price: 1000 + ((index * 37) % 101),
        size: 3 + index,
        offset: Math.floor(index / 2) * 10 * MINUTE + (index % 2) * MINUTE,
        sold: index % 4 === 0 ? 2 : 0,
      })),
      '10m',
    );
    const earlier = Buffer.from(PINNED_PAGE, 'base64');
    assert.equal(earlier[0], COLUMNS_MARK);
    assert.deepEqual(pageEntries('10m', 0, earlier), entries, 'a page of an earlier release reads');
    const stored = Buffer.from(PINNED_TOP_FROM_MAX_PAGE, 'base64');
    assert.equal(stored[0], TOP_FROM_MAX_MARK);
    assert.deepEqual(encodePage('10m', 0, entries!), stored);
    assert.deepEqual(pageEntries('10m', 0, stored), entries);
  });
});
