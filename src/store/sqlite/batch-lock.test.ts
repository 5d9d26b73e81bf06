import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { MINUTE } from '../../domain/clock.ts';
import { T0, listing } from '../contract-fixtures.ts';
import { createSqlitePriceStore } from './sqlite-price-store.ts';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sqlite-batch-lock-'));
after(() => fs.rmSync(root, { recursive: true, force: true }));

/** Another connection, on a thread of its own: takes the write lock, then commits after 300 ms. */
const OTHER_WRITER = `
  const { parentPort, workerData } = require('node:worker_threads');
  const Database = require(${JSON.stringify(createRequire(import.meta.url).resolve('better-sqlite3'))});
  const db = new Database(workerData.file);
  db.exec('BEGIN IMMEDIATE');
  db.prepare("INSERT OR REPLACE INTO store_marks (name, at) VALUES ('other', 1)").run();
  parentPort.postMessage('locked');
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 300);
  db.exec('COMMIT');
  db.close();
`;

test('a batch whose logs read first waits for another writer instead of failing as locked', async () => {
  const file = path.join(fs.mkdtempSync(path.join(root, 'db-')), 'prices.db');
  const store = createSqlitePriceStore({ path: file, rollups: false });
  await store.init();
  await store.writeBatch({ sides: [], sales: [], listings: [listing()] });
  const other = new Worker(OTHER_WRITER, { eval: true, workerData: { file } });
  await once(other, 'message');
  const later = listing({ fetchedAt: T0 + MINUTE, price: 4321 });
  const counts = await store.writeBatch({ sides: [], sales: [], listings: [later] });
  assert.equal(counts.listings, 1);
  await once(other, 'exit');
  await store.close();
});
