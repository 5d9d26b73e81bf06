import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, resolveServeConfig } from './config.ts';

describe('resolveServeConfig', () => {
  test('defaults', () => {
    const config = resolveServeConfig({}, {});
    assert.equal(config.port, 8080);
    assert.equal(config.source, 'sim');
    assert.equal(config.dataDir, './data');
    assert.equal(config.backfillDays, 7);
  });

  test('flags win over environment, strings are converted', () => {
    const config = resolveServeConfig({ port: '9000' }, { PORT: '7000', PRICING_SEED: '7' });
    assert.equal(config.port, 9000);
    assert.equal(config.seed, 7);
  });

  test('bad values are refused with the field named', () => {
    assert.throws(() => resolveServeConfig({ port: 'abc' }, {}), ConfigError);
    assert.throws(() => resolveServeConfig({ source: 'live' }, {}), /source/);
    assert.throws(() => resolveServeConfig({ port: '70000' }, {}), /port/);
  });
});
