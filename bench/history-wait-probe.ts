/**
 * Probe: a first start of the default server (backfill running), a history read of one popular
 * item every 50 ms and a pricing read beside it, for PROBE_S seconds; prints the slowest of each
 * per 10 s and the longest event-loop stall. Usage: node --import tsx bench/history-wait-probe.ts [bin]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { prepareBenchAccount } from './http-reads.ts';
import { METRICS_AND_LISTENING, defaultStartArgs, spawnPinned, waitForPrices } from './pinned.ts';
import { longestStallMs, popularPricingPaths } from './pinned-use.ts';

const seconds = Number(process.env.PROBE_S ?? 120);
const dataDir = mkdtempSync(join(tmpdir(), 'pricing-hwait-'));
const key = prepareBenchAccount(dataDir);
const args = defaultStartArgs(dataDir);
if (process.argv[2]) args[0] = process.argv[2];
const headers = { Authorization: `ApiKey ${key}` };
const [pricing] = popularPricingPaths();
const history = `${pricing}/history?interval=HOUR_1&from=now-7d&to=now`;
const server = await spawnPinned(args, 0, METRICS_AND_LISTENING, 900_000);
const timed = async (path: string) => {
  const start = performance.now();
  const response = await fetch(`${server.url}${path}`, { headers });
  await response.arrayBuffer();
  return { ms: performance.now() - start, status: response.status };
};
try {
  await waitForPrices(`${server.url}${pricing}`, key);
  const started = performance.now();
  let slowHistory = 0,
    slowPricing = 0,
    bad = 0,
    reads = 0;
  await longestStallMs(server.metricsUrl!);
  while (performance.now() - started < seconds * 1000) {
    const [h, p] = await Promise.all([timed(history), timed(pricing!)]);
    reads += 1;
    if (h.status !== 200) bad += 1;
    slowHistory = Math.max(slowHistory, h.ms);
    slowPricing = Math.max(slowPricing, p.ms);
    if (reads % 150 === 0) {
      const stall = await longestStallMs(server.metricsUrl!);
      console.log(
        `${((performance.now() - started) / 1000).toFixed(0)} s: history max ${slowHistory.toFixed(1)} ms, pricing max ${slowPricing.toFixed(1)} ms, non-200 ${bad}, stall ${stall.toFixed(1)} ms`,
      );
      slowHistory = slowPricing = 0;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
} finally {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
