/**
 * The web terminal: time to first render of the item page, measured in Debian's chromium
 * (playwright-core) from navigation start until the per-market table and the depth chart hold
 * data, against a baseline navigation in the same browser to the keyless health JSON (what the
 * browser needs to show any answer of this server); then the terminal routes' throughput
 * (autocannon) against the key-gated pricing snapshot of the same item, same server, same run.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { launchChromium } from '../test/terminal-browser-support.ts';
import { describeLoad, load, ratio, spawnServer, PRICING_BIN } from './harness.ts';
import { BENCH_ITEM, prepareBenchAccount } from './http-reads.ts';
import { waitForPrices } from './pinned.ts';

const RUNS = 9;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function timeTo(page: Page, url: string, ready: () => boolean): Promise<number> {
  await page.goto('about:blank');
  await page.goto(url);
  await page.waitForFunction(ready, undefined, { timeout: 60_000 });
  return page.evaluate(() => performance.now());
}

async function firstRender(base: string): Promise<void> {
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.route(
      (url) => url.origin !== new URL(base).origin && url.protocol !== 'about:',
      (route) => route.abort(),
    );
    const item = `${base}/#/item/cs2/${encodeURIComponent(BENCH_ITEM)}`;
    const rendered = () =>
      document.querySelectorAll('#market-table tbody tr').length > 0 &&
      Number(document.querySelector('[data-chart="depth"]')?.getAttribute('data-points')) > 0;
    const shown = () => (document.body?.textContent?.length ?? 0) > 0;
    await timeTo(page, item, rendered);
    const baseline: number[] = [];
    const terminal: number[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      baseline.push(await timeTo(page, `${base}/v1/markets/health`, shown));
      terminal.push(await timeTo(page, item, rendered));
    }
    const b = median(baseline);
    const t = median(terminal);
    console.log(`baseline: GET /v1/markets/health shown in the browser: median ${b.toFixed(0)} ms`);
    console.log(
      `item page first render (table + depth chart with data): median ${t.toFixed(0)} ms ` +
        `(${RUNS} loads, warm cache); ratio ${ratio(t, b)}`,
    );
  } finally {
    await browser.close();
  }
}

/**
 * 10 connections, after a pause that lets the previous run's backlog drain and one warm-up
 * request: on a shared 2-core machine 50 connections queue for seconds and measure the queue.
 */
async function measured(url: string, headers: Record<string, string> = {}) {
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  await fetch(url, { headers }).then((response) => response.arrayBuffer());
  return load(url, { connections: 10, seconds: 8, headers });
}

export async function benchTerminal(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'pricing-terminal-bench-'));
  // An Enterprise account without a practical minute limit: the baseline measures the read.
  const key = prepareBenchAccount(dataDir);
  const server = await spawnServer(
    [
      PRICING_BIN,
      'serve',
      '--port',
      '0',
      '--data',
      dataDir,
      '--source',
      'sim',
      '--log-level',
      'warn',
    ].concat([
      '--backfill-days',
      '0.25',
      '--backfill-items',
      '10',
      '--sim-items',
      '2000',
      '--terminal-per-minute',
      '1000000',
    ]),
    600_000,
  );
  try {
    const name = encodeURIComponent(BENCH_ITEM);
    await waitForPrices(`${server.url}/v1/pricing/${name}`, key, 600_000);
    await firstRender(server.url);
    const routes: Record<string, string> = {
      'GET /terminal/api/item': `/terminal/api/item?game=cs2&name=${name}`,
      'GET /terminal/api/search?q=ak red': '/terminal/api/search?game=cs2&q=ak%20red',
      'GET /terminal/api/markets': '/terminal/api/markets?game=cs2',
      'GET / (page)': '/',
    };
    const pricing = `${server.url}/v1/pricing/${name}`;
    const keyHeader = { authorization: `ApiKey ${key}` };
    // Each route right after its own baseline run: the machine's load drifts within a run.
    for (const [label, path] of Object.entries(routes)) {
      const baseline = await measured(pricing, keyHeader);
      const result = await measured(`${server.url}${path}`);
      console.log(describeLoad('  baseline GET /v1/pricing/:name (key, 10 connections)', baseline));
      console.log(
        `${describeLoad(`${label} (10 connections)`, result)}; ratio ${ratio(result.requestsPerSecond, baseline.requestsPerSecond)}`,
      );
    }
  } finally {
    await server.stop();
  }
}
