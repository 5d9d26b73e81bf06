/**
 * Attribute buckets: (1) listings and attribute-latest reads through auth + plan + quota on the
 * real `pricing serve` (simulator), each against a bare Fastify hello-world measured in the same
 * run (bench/http-reads.ts), next to the plain pricing snapshot; (2) bucket derivation cost per
 * ingested listing: Book.apply of listing batches with the AttributeBook listening against the
 * same apply without it (the baseline), the ingest-side BucketObserver, and recording the
 * resulting observations in a SQLite history store.
 */
import { performance } from 'node:perf_hooks';
import { AttributeBook } from '../src/attributes/attribute-book.ts';
import { BucketObserver } from '../src/attributes/history-recorder.ts';
import { Book } from '../src/book/book.ts';
import { loadCatalogs } from '../src/catalog/index.ts';
import type { CatalogItem } from '../src/domain/item.ts';
import type { MarketId } from '../src/domain/markets.ts';
import type { IngestBatch, ListingRecord } from '../src/domain/quote.ts';
import { floatBandOf } from '../src/markets/sim/items.ts';
import { createSqlitePriceStore } from '../src/store/sqlite/sqlite-price-store.ts';
import { BENCH_ITEM, benchHttpReads } from './http-reads.ts';

const MARKETS: MarketId[] = ['buff163', 'csfloat', 'dmarket'];
const LISTINGS_PER_MARKET = 12;
const ITEMS = 3000;
const ROUNDS = 5;

function batchesFor(items: readonly CatalogItem[], round: number): IngestBatch[] {
  const at = Date.parse('2026-11-01T12:00:00Z') + round * 60_000;
  let seed = round * 7919 + 1;
  const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
  return MARKETS.map((market) => {
    const listings: ListingRecord[] = [];
    for (const item of items) {
      const band = floatBandOf(item) ?? { min: 0.15, max: 0.38 };
      for (let i = 0; i < LISTINGS_PER_MARKET; i += 1) {
        listings.push({
          game: 'cs2',
          itemId: item.id,
          market,
          listingId: `${item.id}-${market}-${round}-${i}`,
          price: 1000 + Math.floor(random() * 5000),
          floatValue: band.min + random() * (band.max - band.min),
          paintSeed: Math.floor(random() * 1000),
          paintIndex: null,
          phase: null,
          inspectLink: null,
          stickers: [],
          isStatTrak: false,
          fetchedAt: at,
          ingestedAt: at,
          originalCurrency: 'USD',
        });
      }
    }
    return { sides: [], sales: [], listings };
  });
}

function nsPerListing(run: () => void, listings: number): number {
  run();
  const started = performance.now();
  run();
  return ((performance.now() - started) * 1e6) / listings;
}

async function benchDerivation(): Promise<void> {
  const catalog = loadCatalogs().cs2;
  const items = catalog.items.filter((item) => floatBandOf(item) !== null).slice(0, ITEMS);
  const rounds = Array.from({ length: ROUNDS }, (_, round) => batchesFor(items, round));
  const listings = ROUNDS * MARKETS.length * items.length * LISTINGS_PER_MARKET;
  const applyAll = (book: Book) => () => {
    for (const round of rounds) for (const batch of round) book.apply(batch);
  };
  const bare = nsPerListing(applyAll(new Book()), listings);
  const watched = new Book();
  const attributes = new AttributeBook(watched, catalog);
  const derived = nsPerListing(applyAll(watched), listings);
  attributes.close();
  const observer = new BucketObserver(catalog);
  const observations = rounds.flat().flatMap((batch) => observer.observe(batch));
  const observe = nsPerListing(() => {
    const fresh = new BucketObserver(catalog);
    for (const round of rounds) for (const batch of round) fresh.observe(batch);
  }, listings);
  const store = createSqlitePriceStore({ path: ':memory:' });
  await store.init();
  const started = performance.now();
  await store.recordBucketObservations(observations);
  const recordNs = ((performance.now() - started) * 1e6) / observations.length;
  await store.close();
  console.log(
    `${listings} listings (${items.length} items × ${MARKETS.length} markets × ${LISTINGS_PER_MARKET}, ${ROUNDS} fetches)`,
  );
  console.log(`baseline Book.apply alone: ${bare.toFixed(0)} ns per listing`);
  console.log(
    `Book.apply + AttributeBook derivation: ${derived.toFixed(0)} ns per listing; ratio vs baseline ${(derived / bare).toFixed(2)} (derivation ${(derived - bare).toFixed(0)} ns per listing)`,
  );
  console.log(
    `ingest-side BucketObserver: ${observe.toFixed(0)} ns per listing; ratio vs baseline ${(observe / bare).toFixed(2)}`,
  );
  console.log(
    `SQLite recordBucketObservations: ${observations.length} observations, ${recordNs.toFixed(0)} ns each (3 tier rows), ${((recordNs * observations.length) / listings).toFixed(0)} ns per listing`,
  );
}

export async function benchAttributes(): Promise<void> {
  await benchDerivation();
  const item = encodeURIComponent(BENCH_ITEM);
  await benchHttpReads({
    'GET /v1/pricing/:name': `/v1/pricing/${item}`,
    'GET /v1/pricing/:name/listings': `/v1/pricing/${item}/listings`,
    'GET /v1/attribute-prices/latest?marketHashName=': `/v1/attribute-prices/latest?marketHashName=${item}&attributes=float,fade,tag`,
    'GET /v1/attribute-prices/latest?limit=100 (snapshot page)':
      '/v1/attribute-prices/latest?limit=100',
  });
}
