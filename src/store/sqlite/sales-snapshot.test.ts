import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { DAY } from '../../domain/clock.ts';
import type { Game } from '../../domain/games.ts';
import type { SaleRecord } from '../../domain/quote.ts';
import { T0, sale } from '../contract-fixtures.ts';
import type { SaleRow } from '../row-decoding.ts';
import { DURABILITY_T0, SALES_PER_BATCH } from './durability-child.ts';
import { decodeSales, encodeSales, SalesSnapshotError } from './sales-snapshot.ts';
import { createSqlitePriceStore, type SqlitePriceStore } from './sqlite-price-store.ts';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sqlite-sales-snapshot-'));
after(() => fs.rmSync(root, { recursive: true, force: true }));

const freshFile = () => path.join(fs.mkdtempSync(path.join(root, 'db-')), 'prices.db');
const clock = { now: () => T0 + DAY };
const SINCE = T0 - 30 * DAY;

async function open(file: string, warnings: string[] = []): Promise<SqlitePriceStore> {
  const store = createSqlitePriceStore({
    path: file,
    clock,
    onFoldError: (message) => warnings.push(message),
  });
  await store.init();
  return store;
}

async function streamed(store: SqlitePriceStore, game: Game, since = SINCE) {
  const all: SaleRecord[] = [];
  await store.streamSales(game, since, (chunk) => all.push(...chunk), 3);
  return all;
}

const copies = (store: SqlitePriceStore) =>
  store.db.prepare<[], [string]>('SELECT game FROM sales_snapshot ORDER BY game').raw().all();

const SALES = [
  sale({ soldAt: T0 + 5, price: 1250, ingestedAt: T0 + 9 }),
  sale({ soldAt: T0 - 20 * DAY, itemId: 'Sticker | Crown (Foil)', market: 'skinport' }),
  sale({ soldAt: T0, itemId: '★ Karambit | Doppler', originalCurrency: 'EUR', quantity: 3 }),
  sale({ soldAt: T0 - 40 * DAY, price: 7 }),
  sale({ game: 'rust', itemId: 'Tempered AK47', soldAt: T0 + 1, market: 'skinport' }),
];

/** A data dir closed by a store that wrote SALES; what its table held, per game. */
async function closedWithSales(): Promise<{ file: string; table: Record<Game, SaleRecord[]> }> {
  const file = freshFile();
  const store = await open(file);
  await store.writeBatch({ sides: [], sales: SALES, listings: [] });
  const table = { cs2: await streamed(store, 'cs2'), rust: await streamed(store, 'rust') };
  await store.close();
  return { file, table };
}

/** Empties the sales table behind the store's back: what it streams then came from the copy. */
function emptyTable(store: SqlitePriceStore): void {
  store.db.exec('DELETE FROM sales');
}

describe('the recent sales copied at clean close', () => {
  test('a store that wrote sales leaves a copy per game, and a restart reads it', async () => {
    const { file, table } = await closedWithSales();
    assert.equal(table.cs2.length, 3, 'the table read honours the window');
    const store = await open(file);
    assert.deepEqual(copies(store), [['cs2'], ['rust']]);
    emptyTable(store);
    assert.deepEqual(await streamed(store, 'cs2'), table.cs2);
    assert.deepEqual(await streamed(store, 'rust'), table.rust);
    assert.deepEqual(await streamed(store, 'cs2', T0), table.cs2.slice(1), 'a later window');
    await store.close();
  });

  test('a store that only read leaves the copies as they were', async () => {
    const { file } = await closedWithSales();
    const reader = await open(file);
    const before = reader.db.prepare('SELECT * FROM sales_snapshot').raw().all();
    await reader.close();
    const store = await open(file);
    assert.deepEqual(store.db.prepare('SELECT * FROM sales_snapshot').raw().all(), before);
    await store.close();
  });

  test('a batch with a new sale drops its game copy; a batch of known sales does not', async () => {
    const { file } = await closedWithSales();
    const store = await open(file);
    await store.writeBatch({ sides: [], sales: [SALES[0]!, SALES[4]!], listings: [] });
    assert.deepEqual(copies(store), [['cs2'], ['rust']], 'nothing new');
    const fresh = sale({ soldAt: T0 + 60_000, price: 999 });
    await store.writeBatch({ sides: [], sales: [fresh], listings: [] });
    assert.deepEqual(copies(store), [['rust']]);
    assert.ok((await streamed(store, 'cs2')).some((held) => held.price === 999));
    await store.close();
  });

  test('a prune that deletes sales drops the copy of their game', async () => {
    const { file } = await closedWithSales();
    const store = await open(file);
    await store.prune({ fetchesBeforeMs: 0, salesBeforeMs: T0 - 10 * DAY });
    assert.deepEqual(copies(store), [['rust']]);
    assert.equal((await streamed(store, 'cs2')).length, 2);
    await store.close();
  });

  test('a copy that does not decode is reported and the table read instead', async () => {
    const { file, table } = await closedWithSales();
    const warnings: string[] = [];
    const store = await open(file, warnings);
    store.db.exec(`UPDATE sales_snapshot SET entries = substr(entries, 1, length(entries) - 3)`);
    assert.deepEqual(await streamed(store, 'cs2'), table.cs2);
    assert.match(warnings.join('\n'), /sales snapshot of cs2 unusable/);
    await store.close();
  });

  test('a copy whose window starts after the one asked for is not used', async () => {
    const { file, table } = await closedWithSales();
    const store = await open(file);
    const older = await streamed(store, 'cs2', T0 - 95 * DAY);
    assert.equal(older.length, table.cs2.length + 1, 'the 40-day-old sale from the table');
    await store.close();
  });

  test('after a kill -9 of a writer, the restart reads every sale it committed', async () => {
    const file = freshFile();
    const first = await open(file);
    await first.writeBatch({
      sides: [],
      sales: [sale({ soldAt: DURABILITY_T0 - 1 })],
      listings: [],
    });
    await first.close();
    const reported = await runAndKillSalesWriter(file, 5);
    const store = await open(file);
    assert.deepEqual(
      copies(store),
      [['rust']],
      'the writer dropped the cs2 copy with its first sale',
    );
    const sold = await streamed(store, 'cs2', DURABILITY_T0 - DAY);
    for (const batch of reported) {
      const inBatch = sold.filter((held) => held.soldAt === DURABILITY_T0 + batch);
      assert.equal(inBatch.length, SALES_PER_BATCH, `batch ${batch}`);
    }
    await store.close();
  });
});

describe('sales snapshot codec', () => {
  const row = fc.record({
    itemId: fc.string({ maxLength: 12 }),
    market: fc.constantFrom('skinport', 'csfloat'),
    price: fc.integer({ min: -5, max: 10_000_000 }),
    quantity: fc.integer({ min: 0, max: 1000 }),
    after: fc.integer({ min: 0, max: 10 * DAY }),
    ingestLag: fc.integer({ min: -DAY, max: DAY }),
    currency: fc.constantFrom('USD', 'EUR', 'CNY'),
  });

  test('round-trips the sales as the table returns them', () => {
    fc.assert(
      fc.property(fc.array(row, { maxLength: 40 }), (rows) => {
        let soldAt = T0;
        const saleRows: SaleRow[] = rows.map((r) => {
          soldAt += r.after;
          const market = r.market as SaleRow[2];
          return [
            'cs2',
            r.itemId,
            market,
            r.price,
            r.quantity,
            soldAt,
            soldAt + r.ingestLag,
            r.currency,
          ];
        });
        const { sinceMs, strings, fields } = decodeSales(encodeSales(T0, saleRows));
        assert.equal(sinceMs, T0);
        const back = [];
        for (let at = 0; at < fields.length; at += 7) {
          const [item, market, currency, sold, price, quantity, ingested] = fields.subarray(
            at,
            at + 7,
          );
          back.push([
            'cs2',
            strings[item!],
            strings[market!],
            price,
            quantity,
            sold,
            ingested,
            strings[currency!],
          ]);
        }
        assert.deepEqual(back, saleRows);
      }),
    );
  });

  test('refuses a truncated copy and one with bytes after its end', () => {
    const blob = encodeSales(T0, [['cs2', 'a', 'skinport', 1, 1, T0 + 1, T0 + 2, 'USD']]);
    for (let cut = 0; cut < blob.length; cut++) {
      assert.throws(() => decodeSales(blob.subarray(0, cut)), SalesSnapshotError);
    }
    assert.throws(() => decodeSales(Buffer.concat([blob, Buffer.of(0)])), SalesSnapshotError);
  });
});

const childScript = fileURLToPath(new URL('./durability-child.ts', import.meta.url));
const projectRoot = fileURLToPath(new URL('../../..', import.meta.url));

/** Runs the durability writer in 'sales' mode and SIGKILLs it after `batches` commits. */
function runAndKillSalesWriter(file: string, batches: number): Promise<number[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', childScript, file, 'sales'], {
      cwd: projectRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const reported: number[] = [];
    let pending = '';
    let stderr = '';
    const giveUp = setTimeout(() => child.kill('SIGKILL'), 180_000);
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      const lines = (pending + chunk.toString()).split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) reported.push(Number(line));
      if (reported.length >= batches) child.kill('SIGKILL');
    });
    child.on('error', reject);
    child.on('exit', (_code, signal) => {
      clearTimeout(giveUp);
      if (signal === 'SIGKILL' && reported.length >= batches) resolve(reported);
      else reject(new Error(`writer ended early (${signal}): ${stderr}`));
    });
  });
}
