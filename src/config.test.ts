import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, resolveServeConfig, resolveStoreConfig } from './config.ts';

describe('resolveServeConfig', () => {
  test('defaults', () => {
    const config = resolveServeConfig({}, {});
    assert.equal(config.port, 8080);
    assert.equal(config.source, 'sim');
    assert.equal(config.dataDir, './data');
    assert.equal(config.backfillDays, 7);
  });

  test('the stream replay window: 10 minutes by default, at least 10, from flag or environment', () => {
    assert.equal(resolveServeConfig({}, {}).streamReplayMinutes, 10);
    assert.equal(resolveServeConfig({ streamReplayMinutes: '30' }, {}).streamReplayMinutes, 30);
    const fromEnv = resolveServeConfig({}, { PRICING_STREAM_REPLAY_MINUTES: '60' });
    assert.equal(fromEnv.streamReplayMinutes, 60);
    assert.throws(() => resolveServeConfig({ streamReplayMinutes: '5' }, {}), ConfigError);
  });

  test('flags win over environment, strings are converted', () => {
    const config = resolveServeConfig({ port: '9000' }, { PORT: '7000', PRICING_SEED: '7' });
    assert.equal(config.port, 9000);
    assert.equal(config.seed, 7);
  });

  test('bad values are refused with the field named', () => {
    assert.throws(() => resolveServeConfig({ port: 'abc' }, {}), ConfigError);
    assert.throws(() => resolveServeConfig({ source: 'replay' }, {}), /source/);
    for (const port of ['1e3', '0x10', '1.5', 'Infinity', '+80', ' ']) {
      assert.throws(() => resolveServeConfig({ port }, {}), ConfigError, port);
    }
    assert.throws(
      () => resolveServeConfig({}, { PRICING_SEED: '4e1' }),
      /seed: must be a plain decimal integer/,
    );
    assert.throws(() => resolveServeConfig({ backfillDays: '1e1' }, {}), /backfillDays/);
    assert.equal(resolveServeConfig({ backfillDays: '0.5', port: '8081' }, {}).backfillDays, 0.5);
    assert.equal(resolveServeConfig({ source: 'live' }, {}).source, 'live');
    assert.equal(resolveServeConfig({}, { PRICING_MARKETS_FILE: 'm.json' }).marketsFile, 'm.json');
    assert.throws(() => resolveServeConfig({ port: '70000' }, {}), /port/);
  });

  test('the inventory origin: Steam Community by default, flag or PRICING_INVENTORY_URL in every source mode', () => {
    assert.equal(resolveServeConfig({}, {}).inventoryUrl, 'https://steamcommunity.com');
    for (const source of ['sim', 'live', 'none']) {
      const byFlag = resolveServeConfig({ source, inventoryUrl: 'http://127.0.0.1:9' }, {});
      assert.equal(byFlag.inventoryUrl, 'http://127.0.0.1:9', source);
      const byEnv = resolveServeConfig({ source }, { PRICING_INVENTORY_URL: 'http://stand.in' });
      assert.equal(byEnv.inventoryUrl, 'http://stand.in', source);
    }
    assert.throws(
      () => resolveServeConfig({ inventoryUrl: 'steamcommunity.com' }, {}),
      /inventoryUrl/,
    );
  });

  test('scale-out defaults: role all, embedded stores, memory quotas', () => {
    const config = resolveServeConfig({}, {});
    assert.equal(config.role, 'all');
    assert.equal(config.databaseUrl, null);
    assert.equal(config.redisUrl, null);
    assert.equal(config.pgSchema, 'public');
    assert.equal(config.redisPrefix, 'pricing:');
    assert.equal(config.leaseMs, 6_000);
  });

  test('DATABASE_URL and REDIS_URL configure every role; flags win', () => {
    const env = { DATABASE_URL: 'postgres://db/prices', REDIS_URL: 'redis://cache:6379' };
    const all = resolveServeConfig({}, env);
    assert.equal(all.databaseUrl, 'postgres://db/prices');
    assert.equal(all.redisUrl, 'redis://cache:6379');
    const api = resolveServeConfig({ role: 'api', redisUrl: 'redis://other:6379' }, env);
    assert.equal(api.role, 'api');
    assert.equal(api.redisUrl, 'redis://other:6379');
    const ingest = resolveServeConfig(
      { role: 'ingest', leaseMs: '1500' },
      { ...env, PRICING_PG_SCHEMA: 'pricing_a', PRICING_REDIS_PREFIX: 'a:' },
    );
    assert.equal(ingest.leaseMs, 1500);
    assert.equal(ingest.pgSchema, 'pricing_a');
    assert.equal(ingest.redisPrefix, 'a:');
  });

  test('an empty variable counts as unset', () => {
    assert.equal(resolveServeConfig({}, { DATABASE_URL: '', REDIS_URL: '' }).databaseUrl, null);
  });

  test('api and ingest need both PostgreSQL and Redis, and say so', () => {
    assert.throws(() => resolveServeConfig({ role: 'ingest' }, {}), /DATABASE_URL.*REDIS_URL/);
    assert.throws(
      () => resolveServeConfig({ role: 'api' }, { DATABASE_URL: 'postgres://db/x' }),
      (error: Error) =>
        error instanceof ConfigError &&
        /REDIS_URL/.test(error.message) &&
        !/DATABASE_URL/.test(error.message),
    );
    assert.throws(() => resolveServeConfig({ role: 'web' }, {}), /role/);
  });

  test('bad schema names and lease periods are refused', () => {
    assert.throws(() => resolveServeConfig({ pgSchema: 'Drop Table' }, {}), /pgSchema/);
    assert.throws(() => resolveServeConfig({ leaseMs: '10' }, {}), /leaseMs/);
  });

  test('the rotating depth items: unset by default, from flag or environment, not negative', () => {
    assert.equal(resolveServeConfig({}, {}).simDepthItems, undefined);
    assert.equal(resolveServeConfig({}, { PRICING_SIM_DEPTH_ITEMS: '190' }).simDepthItems, 190);
    assert.equal(resolveServeConfig({ simDepthItems: '5' }, {}).simDepthItems, 5);
    assert.throws(() => resolveServeConfig({ simDepthItems: '-1' }, {}), /simDepthItems/);
  });

  test('the catalog cut: every item by default, from flag or environment, not negative', () => {
    assert.equal(resolveServeConfig({}, {}).catalogItems, 0);
    const env = { PRICING_CATALOG_ITEMS: '300' };
    assert.equal(resolveServeConfig({}, env).catalogItems, 300);
    assert.equal(resolveServeConfig({ catalogItems: '40' }, env).catalogItems, 40);
    assert.throws(() => resolveServeConfig({ catalogItems: '-1' }, {}), /catalogItems/);
  });

  test('the first-wave wait: 60 s by default, 0 to 600 s, flag over environment', () => {
    assert.equal(resolveServeConfig({}, {}).firstWaveWaitMs, 60_000);
    const env = { PRICING_FIRST_WAVE_WAIT_MS: '0' };
    assert.equal(resolveServeConfig({}, env).firstWaveWaitMs, 0);
    assert.equal(resolveServeConfig({ firstWaveWaitMs: '2500' }, env).firstWaveWaitMs, 2500);
    assert.throws(() => resolveServeConfig({ firstWaveWaitMs: '-1' }, {}), /firstWaveWaitMs/);
    assert.throws(() => resolveServeConfig({ firstWaveWaitMs: '600001' }, {}), /firstWaveWaitMs/);
  });

  test('the admin commands read the same store settings', () => {
    const config = resolveStoreConfig(
      { dataDir: '/srv/pricing' },
      { DATABASE_URL: 'postgres://db/x' },
    );
    assert.deepEqual(config, {
      dataDir: '/srv/pricing',
      databaseUrl: 'postgres://db/x',
      pgSchema: 'public',
      redisUrl: null,
      redisPrefix: 'pricing:',
    });
  });
});
