/**
 * Probe: when in the first minute do the slowest pricing requests come? The default start
 * pinned as in `pinned`; 50 connections loop over the popular items from first prices for
 * PROBE_SECONDS, and the slowest requests are printed with their start time after spawn.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Pool } from 'undici';
import { prepareBenchAccount } from './http-reads.ts';
import {
  LOAD_CORE,
  METRICS_AND_LISTENING,
  PINNED_PATHS,
  SERVER_CORE,
  defaultStartArgs,
  pinSelf,
  spawnPinned,
  waitForPrices,
} from './pinned.ts';
import { popularPricingPaths } from './pinned-use.ts';

pinSelf(LOAD_CORE);
const seconds = Number(process.env.PROBE_SECONDS ?? 30);
const dataDir = mkdtempSync(join(tmpdir(), 'pricing-maxprobe-'));
const key = prepareBenchAccount(dataDir);
const paths = popularPricingPaths();
const spawnedAt = performance.now();
const server = await spawnPinned(
  defaultStartArgs(dataDir),
  SERVER_CORE,
  METRICS_AND_LISTENING,
  900_000,
);
await waitForPrices(`${server.url}${Object.values(PINNED_PATHS)[0]}`, key);
const pool = new Pool(server.url, { connections: 50, pipelining: 1 });
const samples: Array<{ at: number; ms: number; path: string }> = [];
const until = performance.now() + seconds * 1000;
let turn = 0;
async function loop() {
  while (performance.now() < until) {
    const path = paths[turn++ % paths.length]!;
    const started = performance.now();
    const res = await pool.request({
      path,
      method: 'GET',
      headers: { authorization: `ApiKey ${key}` },
    });
    await res.body.dump();
    samples.push({ at: (started - spawnedAt) / 1000, ms: performance.now() - started, path });
  }
}
await Promise.all(Array.from({ length: 50 }, loop));
samples.sort((a, b) => b.ms - a.ms);
console.log(`${samples.length} requests; slowest:`);
for (const s of samples.slice(0, 15))
  console.log(
    `  at ${s.at.toFixed(2)} s: ${s.ms.toFixed(1)} ms ${decodeURIComponent(s.path).slice(0, 60)}`,
  );
const buckets = new Map<number, number>();
for (const s of samples)
  if (s.ms > 50) buckets.set(Math.floor(s.at), (buckets.get(Math.floor(s.at)) ?? 0) + 1);
console.log(
  'seconds with requests over 50 ms:',
  [...buckets].map(([s, n]) => `${s}s:${n}`).join(' '),
);
await pool.close();
await server.stop();
rmSync(dataDir, { recursive: true, force: true });
process.exit(0);
