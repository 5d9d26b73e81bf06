/**
 * A server boot with and without the catalog cache (src/catalog/catalog-cache.ts): the default
 * server on a fresh data dir, once with an empty cache dir (it builds and writes the catalogs)
 * and once with that dir filled, alternately; seconds from spawn to first prices and the CPU
 * seconds of the main thread and of the whole process at that moment. Each server is killed
 * (SIGKILL) at first prices: a clean stop waits for its first backfill.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { embeddedEnv, PRICING_BIN, spawnServer } from './harness.ts';
import { BENCH_ITEM } from './http-reads.ts';
import { waitForPrices } from './pinned.ts';
import { cpuSeconds } from './restart.ts';

interface Boot {
  seconds: number;
  mainCpu: number;
  processCpu: number;
}

async function bootToPrices(cacheDir: string): Promise<Boot> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-catalog-cache-data-'));
  const started = performance.now();
  const args = [PRICING_BIN, 'serve', '--port', '0', '--data', dataDir, '--source', 'sim'];
  const env = { ...embeddedEnv(), PRICING_CATALOG_CACHE_DIR: cacheDir };
  const server = await spawnServer(args, 600_000, env);
  const key = readFileSync(join(dataDir, 'demo-key.txt'), 'utf8').trim();
  await waitForPrices(`${server.url}/v1/pricing/${encodeURIComponent(BENCH_ITEM)}`, key, 600_000);
  const seconds = (performance.now() - started) / 1000;
  const pid = server.child.pid!;
  const boot = {
    seconds,
    mainCpu: cpuSeconds(`/proc/${pid}/task/${pid}/stat`),
    processCpu: cpuSeconds(`/proc/${pid}/stat`),
  };
  const exited = new Promise((done) => server.child.once('exit', done));
  server.child.kill('SIGKILL');
  await exited;
  rmSync(dataDir, { recursive: true, force: true });
  return boot;
}

function line(label: string, boot: Boot): string {
  return (
    `${label.padEnd(6)} first prices ${boot.seconds.toFixed(2)} s, CPU main thread ` +
    `${boot.mainCpu.toFixed(2)} s, whole process ${boot.processCpu.toFixed(2)} s`
  );
}

export async function benchCatalogCache(rounds = 2): Promise<void> {
  console.log(
    `load average ${loadavg()
      .map((load) => load.toFixed(2))
      .join(' ')}`,
  );
  for (let round = 1; round <= rounds; round += 1) {
    const cacheDir = mkdtempSync(join(tmpdir(), 'bench-catalog-cache-'));
    console.log(line('cold', await bootToPrices(cacheDir)));
    console.log(line('warm', await bootToPrices(cacheDir)));
    rmSync(cacheDir, { recursive: true, force: true });
  }
  console.log(
    `load average ${loadavg()
      .map((load) => load.toFixed(2))
      .join(' ')}`,
  );
}
