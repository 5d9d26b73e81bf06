import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveStoreConfig } from '../config.ts';
import { manualClock } from '../domain/clock.ts';
import {
  DATABASE_URL,
  dropSchema,
  needsPostgres,
  testSchemaName,
} from '../store/postgres/test-support.ts';
import { createAccessStore, createPriceStore, describeStores, storeKind } from './stores.ts';

const clock = manualClock('2026-11-20T10:00:00Z');

describe('stores from the configuration', () => {
  test('without DATABASE_URL: SQLite files in the data dir, history served', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pricing-stores-'));
    const config = resolveStoreConfig({ dataDir: dir }, {});
    assert.equal(storeKind(config), 'sqlite');
    const opened = createPriceStore(config, clock);
    const access = createAccessStore(config, clock);
    await opened.prices.init();
    await access.init();
    assert.equal(opened.kind, 'sqlite');
    assert.notEqual(opened.history, null);
    assert.ok(existsSync(join(dir, 'prices.db')) && existsSync(join(dir, 'access.db')));
    await Promise.all([opened.prices.close(), access.close()]);
  });

  test('the description never carries credentials', () => {
    const config = resolveStoreConfig(
      {},
      { DATABASE_URL: 'postgres://app:s3cret@db.internal:5432/prices', PRICING_PG_SCHEMA: 'eu' },
    );
    assert.equal(storeKind(config), 'postgres');
    const text = describeStores(config);
    assert.equal(text, 'postgresql://db.internal:5432/prices (schema eu)');
    assert.doesNotMatch(text, /s3cret|app@/);
  });
});

describe('stores on PostgreSQL', needsPostgres, () => {
  test('price and access stores share one schema; the price store serves history', async () => {
    const schema = testSchemaName();
    const config = resolveStoreConfig({}, { DATABASE_URL, PRICING_PG_SCHEMA: schema });
    const opened = createPriceStore(config, clock);
    const access = createAccessStore(config, clock);
    try {
      await opened.prices.init();
      await access.init();
      assert.equal(opened.kind, 'postgres');
      assert.equal(opened.history, opened.prices);
      assert.deepEqual(await opened.history?.historyMarkets('cs2', 'AK-47 | Redline'), []);
      assert.equal(await opened.prices.isEmpty(), true);
      assert.deepEqual(await access.listAccounts(), []);
    } finally {
      await Promise.all([opened.prices.close(), access.close()]);
      await dropSchema(schema);
    }
  });
});
