/**
 * `npm run bench -- liquidity`: the time-to-sell estimate's accuracy against the simulator's
 * true sale process (liquidity-accuracy.ts), the cost of single-item liquidity reads through
 * the full route (auth, plan, quota, validation, handler, serialisation; in process, with
 * app.inject) against GET /v1/pricing/:name on the same item in the same run, and the time to
 * build the bulk liquidity map for the whole cs2 catalog against the /v1/items/all payload.
 */
import type { Book } from '../src/book/book.ts';
import { loadCatalogs } from '../src/catalog/index.ts';
import { manualClock } from '../src/domain/clock.ts';
import type { App } from '../src/http/app-type.ts';
import { unlimitedApp } from './unlimited-app.ts';
import { ItemsAllCache } from '../src/http/items-all-cache.ts';
import { BulkLiquidityCache } from '../src/liquidity/bulk-cache.ts';
import { accuracyTrials, summarize } from './liquidity-accuracy.ts';
import { fullBook } from './full-book.ts';

const AT = Date.parse('2026-11-20T00:00:00Z');
const READS = 2_000;
const KEY = 'sk_bench_liquidity';

type Catalogs = ReturnType<typeof loadCatalogs>;

function reportAccuracy(catalogs: Catalogs): Book {
  const started = performance.now();
  const { trials, book } = accuracyTrials(catalogs, AT);
  const found = summarize(trials);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `${found.trials} listings (${found.censored} unsold within 120 days), ${seconds} s\n` +
      `median |ln(predicted median / actual)|: estimate ${found.medianAbsLogError.toFixed(3)}, ` +
      `oracle (true rate, same model) ${found.oracleMedianAbsLogError.toFixed(3)}, ` +
      `ratio ${(found.medianAbsLogError / found.oracleMedianAbsLogError).toFixed(2)}\n` +
      `actual sale at or before the predicted p90: estimate ${(100 * found.shareUnderP90).toFixed(1)}%, ` +
      `oracle ${(100 * found.oracleShareUnderP90).toFixed(1)}% (target 90%)`,
  );
  return book;
}

async function timeReads(app: App, label: string, request: object) {
  const inject = () => app.inject({ headers: { authorization: `ApiKey ${KEY}` }, ...request });
  for (let i = 0; i < 200; i += 1) await inject();
  const started = performance.now();
  for (let i = 0; i < READS; i += 1) {
    const response = await inject();
    if (response.statusCode !== 200) throw new Error(`${label}: ${response.statusCode}`);
  }
  const micros = ((performance.now() - started) * 1000) / READS;
  return { label, micros };
}

async function reportReads(catalogs: Catalogs, book: Book, itemName: string): Promise<void> {
  const app = await unlimitedApp(KEY, {
    clock: manualClock(AT),
    catalogs,
    book,
  });
  const name = encodeURIComponent(itemName);
  const hundred = catalogs.cs2.items.slice(0, 100).map((item) => item.marketHashName);
  const results = [
    await timeReads(app, 'GET /v1/pricing/:name (baseline)', { url: `/v1/pricing/${name}` }),
    await timeReads(app, 'GET /v1/liquidity/:name', { url: `/v1/liquidity/${name}` }),
    await timeReads(app, 'GET /v1/liquidity/:name?askPrice=', {
      url: `/v1/liquidity/${name}?askPrice=100000`,
    }),
    await timeReads(app, 'GET /v1/liquidity/summary/:name', {
      url: `/v1/liquidity/summary/${name}`,
    }),
    await timeReads(app, 'POST /v1/liquidity/batch, 100 names', {
      method: 'POST',
      url: '/v1/liquidity/batch',
      payload: { marketHashNames: hundred },
    }),
  ];
  const baseline = results[0]!.micros;
  for (const { label, micros } of results) {
    console.log(
      `${label}: ${micros.toFixed(0)} µs per request, ${(micros / baseline).toFixed(2)}× the baseline`,
    );
  }
  await app.close();
}

async function reportBulkBuild(catalogs: Catalogs, book: Book): Promise<void> {
  const clock = manualClock(AT);
  const itemsAll = new ItemsAllCache({ book, catalog: catalogs.cs2, clock });
  const bulk = new BulkLiquidityCache({ book, catalog: catalogs.cs2, clock });
  const time = async (build: () => Promise<void>) => {
    const started = performance.now();
    await build();
    return performance.now() - started;
  };
  const itemsAllMs = await time(() => itemsAll.rebuild());
  const bulkMs = await time(() => bulk.rebuild());
  itemsAll.close();
  const snapshot = bulk.current()!;
  console.log(
    `bulk liquidity map, ${snapshot.itemCount} cs2 items: ${bulkMs.toFixed(0)} ms to build ` +
      `(${(snapshot.items.jsonBytes / 1e6).toFixed(1)} MB JSON, ${(snapshot.items.gzip.length / 1e6).toFixed(1)} MB gzip); ` +
      `/v1/items/all payload ${itemsAllMs.toFixed(0)} ms (baseline); ratio ${(bulkMs / itemsAllMs).toFixed(2)}`,
  );
}

export async function benchLiquidity(): Promise<void> {
  const catalogs = loadCatalogs();
  console.log('\n### Accuracy against the simulator (30 days of history, listing at T)');
  const history = reportAccuracy(catalogs);
  const book = await fullBook(catalogs, AT);
  for (const item of catalogs.cs2.items) {
    const sales = history.sales('cs2', item.id);
    if (sales.length > 0) book.apply({ sides: [], sales: [...sales], listings: [] });
  }
  const busiest = catalogs.cs2.items.reduce((best, item) =>
    book.sales('cs2', item.id).length > book.sales('cs2', best.id).length ? item : best,
  );
  console.log(
    `\n### Reads (in process, ${READS} requests each; item with the most sales: ${busiest.marketHashName}, ${book.sales('cs2', busiest.id).length} sales held)`,
  );
  await reportReads(catalogs, book, busiest.marketHashName);
  console.log(
    '\n### Whole-catalog build (full simulated book at T plus the sampled items’ 30 days of sales)',
  );
  await reportBulkBuild(catalogs, book);
}
