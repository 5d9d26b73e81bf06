import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CATALOG_CUT, startServer, tempDataDir, type RunningServer } from './cli-helpers.ts';

/** Live polls only: the backfill and its kill are test/backfill-resume.test.ts's. */
const SIM_ARGS = ['--source', 'sim', '--backfill-days', '0', '--sim-items', '100', ...CATALOG_CUT];

async function getJson(server: RunningServer, key: string, path: string) {
  const response = await fetch(`${server.baseUrl}${path}`, {
    headers: { Authorization: `ApiKey ${key}` },
  });
  assert.equal(response.status, 200, `${path}: ${await response.clone().text()}`);
  return response.json();
}

/**
 * Polls until `probe` answers. The limit only guards against a hang: the ingest worker starts
 * after the server listens, and its first polls took over a minute at load average 50.
 */
async function eventually<T>(probe: () => Promise<T | null>, timeoutMs = 240_000): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== null) return value;
    if (performance.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 500));
  }
}

describe('end to end: the simulator feeds both games; a kill -9 loses nothing committed', () => {
  const dir = tempDataDir();
  let server: RunningServer | null = null;
  after(async () => {
    await server?.stop('SIGKILL');
  });

  test('live quotes for cs2 and rust, then the same quote after kill -9 and a restart', async () => {
    const bootedAt = Date.now();
    server = await startServer([...SIM_ARGS, '--data', dir]);
    const key = readFileSync(join(dir, 'demo-key.txt'), 'utf8').trim();

    const cs2 = await eventually(async () => {
      const page = await getJson(server!, key, '/v1/items?perPage=5');
      const live = page.data.find((snapshot: { markets: { fetchedAt: string }[] }) =>
        snapshot.markets.some((quote) => Date.parse(quote.fetchedAt) >= bootedAt),
      );
      return live ?? null;
    });
    const rust = await getJson(server, key, '/v2/items?game=rust&perPage=5');
    assert.ok(rust.data.length > 0, 'rust items are quoted');
    const health = await fetch(`${server.baseUrl}/v1/markets/health`);
    assert.equal(health.status, 200);

    const path = `/v1/pricing/${encodeURIComponent(cs2.name)}`;
    const before = await getJson(server, key, path);
    await server.stop('SIGKILL');
    server = await startServer(['--source', 'none', ...CATALOG_CUT, '--data', dir]);
    const afterRestart = await getJson(server, key, path);
    for (const quote of before.markets) {
      const restored = afterRestart.markets.find(
        (q: { market: string }) => q.market === quote.market,
      );
      assert.ok(restored, `${quote.market} quote survived the restart`);
      assert.ok(Date.parse(restored.fetchedAt) >= Date.parse(quote.fetchedAt));
    }
  });
});
