import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, resolveServeConfig } from '../config.ts';

const TOKEN = 'operator-token-0123456789';

describe('metrics settings: flags and environment', () => {
  test('off by default; the port from a flag or PRICING_METRICS_PORT', () => {
    const off = resolveServeConfig({}, {});
    assert.equal(off.metricsPort, undefined);
    assert.equal(off.metricsHost, '127.0.0.1');
    assert.equal(resolveServeConfig({ metricsPort: '9464' }, {}).metricsPort, 9464);
    const fromEnv = resolveServeConfig(
      {},
      { PRICING_METRICS_PORT: '9464', PRICING_METRICS_HOST: '::1' },
    );
    assert.equal(fromEnv.metricsPort, 9464);
    assert.equal(fromEnv.metricsHost, '::1');
  });

  test('never the API port', () => {
    assert.throws(
      () => resolveServeConfig({ port: '8080', metricsPort: '8080' }, {}),
      (error: Error) =>
        error instanceof ConfigError && /metricsPort must differ from port/.test(error.message),
    );
    assert.equal(resolveServeConfig({ port: '0', metricsPort: '0' }, {}).metricsPort, 0);
  });

  test('beyond loopback only with a token of at least 16 characters', () => {
    for (const host of ['0.0.0.0', '10.1.2.3', '::', 'metrics.internal']) {
      assert.throws(
        () => resolveServeConfig({ metricsPort: '9464', metricsHost: host }, {}),
        /metricsToken \(PRICING_METRICS_TOKEN\) is required when metrics listen on/,
        host,
      );
    }
    for (const host of ['127.0.0.1', '127.0.0.2', '::1', 'localhost']) {
      assert.equal(
        resolveServeConfig({ metricsPort: '9464', metricsHost: host }, {}).metricsPort,
        9464,
      );
    }
    const withToken = resolveServeConfig(
      { metricsPort: '9464', metricsHost: '0.0.0.0' },
      { PRICING_METRICS_TOKEN: TOKEN },
    );
    assert.equal(withToken.metricsToken, TOKEN);
    assert.throws(
      () => resolveServeConfig({ metricsPort: '9464', metricsToken: 'short' }, {}),
      /metricsToken: Expected string length greater or equal to 16/,
    );
    assert.throws(() => resolveServeConfig({ metricsPort: 'abc' }, {}), /metricsPort/);
  });
});
