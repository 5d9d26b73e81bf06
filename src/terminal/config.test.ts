/**
 * The terminal's settings: on by default at 120 requests a minute per IP; `--no-terminal` /
 * PRICING_TERMINAL=false turns it off, PRICING_TERMINAL_PER_MINUTE sets the limit; and the real
 * CLI started with `--no-terminal` serves no page while the API stays up.
 */
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, resolveServeConfig } from '../config.ts';
import {
  CATALOG_CUT,
  startServer,
  tempDataDir,
  type RunningServer,
} from '../../test/cli-helpers.ts';
import { DEFAULT_TERMINAL_PER_MINUTE } from './limit.ts';

describe('terminal settings', () => {
  test('defaults: on, 120 a minute', () => {
    const config = resolveServeConfig({}, {});
    assert.equal(config.terminal, true);
    assert.equal(config.terminalPerMinute, DEFAULT_TERMINAL_PER_MINUTE);
    assert.equal(DEFAULT_TERMINAL_PER_MINUTE, 120);
  });

  test('flags and environment', () => {
    assert.equal(resolveServeConfig({ terminal: false }, {}).terminal, false);
    assert.equal(resolveServeConfig({}, { PRICING_TERMINAL: 'false' }).terminal, false);
    const limit = resolveServeConfig({}, { PRICING_TERMINAL_PER_MINUTE: '30' });
    assert.equal(limit.terminalPerMinute, 30);
    assert.throws(() => resolveServeConfig({ terminalPerMinute: '0' }, {}), ConfigError);
    assert.throws(() => resolveServeConfig({ terminalPerMinute: '1e3' }, {}), ConfigError);
  });

  describe('pricing serve --no-terminal', () => {
    let server: RunningServer | null = null;
    after(async () => {
      await server?.stop();
    });

    test('no page and no terminal routes; health still answers', async () => {
      const dir = tempDataDir();
      server = await startServer([
        '--source',
        'none',
        '--no-terminal',
        ...CATALOG_CUT,
        '--data',
        dir,
      ]);
      assert.equal((await fetch(`${server.baseUrl}/`)).status, 404);
      const search = await fetch(`${server.baseUrl}/terminal/api/search?game=cs2&q=ak`);
      assert.equal(search.status, 404);
      assert.equal((await fetch(`${server.baseUrl}/v1/markets/health`)).status, 200);
    });
  });
});
