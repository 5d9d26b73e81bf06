/** `npm run bench`: every benchmark, each reporting a ratio against a baseline from the same run. */
import { benchAttributes } from './attributes.ts';
import { benchCatalogCache } from './catalog-cache.ts';
import { benchDiskDay } from './disk-day.ts';
import { benchPostgresDiskDay } from './disk-day-pg.ts';
import { benchFootprint } from './footprint.ts';
import { benchFoldWrites } from './fold-writes.ts';
import { benchHistory, benchHistoryFolds, benchHistorySizes } from './history.ts';
import { benchDerivedAggregate } from './history-derived-aggregate.ts';
import { BENCH_ITEM, benchHttpReads } from './http-reads.ts';
import { benchLiveBudgets } from './live-budget.ts';
import { benchLiquidity } from './liquidity.ts';
import { benchLiveIngest } from './live-ingest.ts';
import { benchMemory } from './memory.ts';
import { benchPinnedReads } from './pinned.ts';
import { benchReadBounds } from './reads-bounds.ts';
import { benchRestart } from './restart.ts';
import { benchSchema } from './schema.ts';
import { benchFailover } from './failover.ts';
import { benchPropagation, benchQuotaStores, benchStoreIngest } from './scale-out.ts';
import { benchApiScaling } from './scaling.ts';
import { benchTerminal } from './terminal.ts';
import { benchStream } from './stream.ts';
import { benchInventory } from './inventory.ts';
import { benchSimPoll } from './sim-poll.ts';
import { benchSidesLog } from './sides-log.ts';
import { benchLiveLog } from './live-log.ts';
import { benchAttributeLog } from './attribute-log.ts';
import { benchSalesTime } from './sales-time.ts';
import { benchDiskProfile } from './disk-profile.ts';

const item = encodeURIComponent(BENCH_ITEM);
const { DATABASE_URL, REDIS_URL } = process.env;
/**
 * `npm run bench -- live` runs only the sections whose name contains the argument; `failover`
 * takes options after it (bench/failover.ts).
 */
const only = process.argv[2];
const wanted = (section: string) => !only || section.includes(only);

console.log(`node ${process.version}; 50 connections; 8 s per measurement after a 2 s warm-up`);
if (wanted('live')) {
  console.log(
    '\n## Live connectors: ingest throughput of the largest bulk feeds at full-catalog size',
  );
  await benchLiveIngest();
  console.log('\n## Live connectors: request budget per market per hour against its limit');
  await benchLiveBudgets();
}
if (wanted('sim-poll')) {
  console.log(
    '\n## sim-poll: simulator CPU per poll round, full catalogs, through the live parsers',
  );
  await benchSimPoll();
}
if (wanted('sides-log')) {
  console.log(
    '\n## sides-log: bytes written by the latest sides, change log + snapshots vs the upsert',
  );
  await benchSidesLog();
}
if (wanted('live-log')) {
  console.log(
    '\n## live-log: bytes written by listings and sales statistics, change log + snapshots vs the upserts',
  );
  await benchLiveLog();
}
if (wanted('attribute-log')) {
  console.log(
    '\n## attribute-log: bytes written by attribute buckets, change log + rows at close vs the upserts',
  );
  await benchAttributeLog();
}
if (wanted('disk-profile')) {
  console.log(
    '\n## disk-profile: what the default server writes between folds, per table and index',
  );
  await benchDiskProfile();
}
if (wanted('sales-time')) {
  console.log(
    '\n## sales-time: bytes written by raw sales, keyed time first vs item first + index',
  );
  await benchSalesTime();
}
if (wanted('reads-bounds')) {
  console.log('\n## reads-bounds: the heaviest reads at their largest allowed parameters');
  await benchReadBounds();
}
if (wanted('liquidity')) {
  console.log(
    '\n## liquidity: time-to-sell accuracy against the simulator, read cost, bulk map build',
  );
  await benchLiquidity();
}
if (wanted('attributes')) {
  console.log('\n## attributes: listings and bucket reads, bucket derivation per ingested listing');
  await benchAttributes();
}
if (wanted('pinned')) {
  console.log(
    '\n## pinned: reads vs bare node:http, server on core 0 (all threads), load on core 1',
  );
  await benchPinnedReads();
}
if (wanted('terminal')) {
  console.log('\n## terminal: item page first render in chromium, terminal route throughput');
  await benchTerminal();
}
if (wanted('schema')) {
  console.log(
    '\n## schema: item schema start, snapshot build and size, /v1/schema from pre-built bytes',
  );
  await benchSchema();
}
if (wanted('memory')) {
  console.log('\n## memory: heap and RSS per component, each after a full GC');
  benchMemory();
}
if (wanted('disk-day')) {
  console.log(
    '\n## disk-day: disk written (real server, steady window) and kept (one simulated day) per day by the default npm start',
  );
  await benchDiskDay();
}
if (wanted('fold-writes')) {
  console.log(
    '\n## fold-writes: SQLite history bytes written by 10-minute folds and packing, 100k series',
  );
  await benchFoldWrites();
}
if (wanted('history-folds')) {
  console.log('\n## history-folds: bytes the 10-minute folds write, days derived vs stored');
  await benchHistoryFolds();
}
if (wanted('history-sizes')) {
  console.log('\n## history-sizes: bytes per item-day per tier on full pages, a year projected');
  await benchHistorySizes();
}
if (wanted('derived-aggregate')) {
  console.log(
    '\n## derived-aggregate: the 180-day hourly aggregate read, stored vs merged at read',
  );
  await benchDerivedAggregate();
}
if (wanted('disk-pg')) {
  console.log(
    '\n## disk-pg: PostgreSQL written and kept per day, the default start on a scratch cluster',
  );
  await benchPostgresDiskDay();
}
if (wanted('footprint')) {
  console.log('\n## footprint: the default npm start server: start, RSS, disk, items/all');
  await benchFootprint();
}
if (wanted('failover')) {
  console.log('\n## failover: kill -9 of the active ingest, the standby takes over');
  await benchFailover(DATABASE_URL, REDIS_URL, process.argv.slice(3));
}
if (wanted('restart')) {
  console.log('\n## restart: the default server restarted on its data dir, time and boot steps');
  await benchRestart();
}
if (wanted('catalog-cache')) {
  console.log(
    '\n## catalog-cache: a boot to first prices with an empty and a filled catalog cache',
  );
  await benchCatalogCache();
}
if (wanted('stream')) {
  console.log('\n## stream: 1,000 open price streams, ingest → client latency, HTTP-thread cost');
  await benchStream();
}
if (wanted('inventory')) {
  console.log('\n## inventory: valuing a 1,000-item inventory from the book, one core');
  benchInventory();
}
if (!wanted('reads history scale-out')) process.exit(0);
console.log(
  '\n## Key-gated reads through auth + plan + quota, full CS2 catalog, simulator running',
);
await benchHttpReads({
  'GET /v1/pricing/:name': `/v1/pricing/${item}`,
  'GET /v1/nbbo?market_hash_name=': `/v1/nbbo?market_hash_name=${item}`,
  'GET /v1/nbbo/depth?market_hash_name=': `/v1/nbbo/depth?market_hash_name=${item}`,
});
console.log('\n## Price history: rollup ingest, bytes per item-day, read latency');
await benchHistory();
console.log('\n## Scale-out primitives');
await benchQuotaStores(REDIS_URL);
await benchPropagation(REDIS_URL);
await benchStoreIngest(DATABASE_URL);
await benchApiScaling(DATABASE_URL, REDIS_URL);
