/**
 * The web terminal in a real browser (playwright-core driving Debian's chromium) against the
 * real `pricing serve --source sim` on a temp data dir: search and open an item with the
 * keyboard; the per-market table (each price traceable to the API), depth chart and history
 * chart render with data; a price change reaches the open page without a reload; the float /
 * phase buckets panel shows the buckets the page received; stale markets are marked; the
 * markets board has 48 bars per market; phone and desktop widths fit; no console errors; the
 * per-IP limit answers 429. Screenshots go to $TERMINAL_SCREENSHOTS (docs/ to
 * refresh the ones docs/terminal.md and the README show) or a temp dir.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import {
  CATALOG_CUT,
  childEnv,
  startServer,
  tempDataDir,
  type RunningServer,
} from './cli-helpers.ts';
import { bucketItem, checkBucketsPanel } from './terminal-browser-buckets.ts';
import {
  eventually,
  launchChromium,
  openPage,
  shownDollars,
  writeOffset,
  type WatchedPage,
} from './terminal-browser-support.ts';

const PER_MINUTE = 300;
const MINUTE = 60_000;
// The popular band starts without waiting for the first polling wave (up to 30 s of the
// markets' start jitter): the first test waits for `backfill finished`. Every one of the 200
// items has listings on every fetch (the ten most popular and 190 more), so the Dopplers' phases
// come with a crawling market's first poll, not when its rotating slice reaches one.
const SIM_ARGS = [
  ...CATALOG_CUT,
  '--first-wave-wait-ms',
  '0',
  '--sim-depth-items',
  '190',
  '--source',
  'sim',
  '--backfill-days',
  '0.25',
  '--backfill-items',
  '10',
  '--sim-items',
  '200',
];
const SHOTS = process.env.TERMINAL_SCREENSHOTS ?? mkdtempSync(join(tmpdir(), 'terminal-shots-'));

interface Quote {
  market: string;
  price: number;
  isStale: boolean;
}
interface Snapshot {
  name: string;
  freshMarketCount: number;
  markets: Quote[];
  buyOrders: Quote[];
}

describe('web terminal in chromium', () => {
  const dir = tempDataDir();
  const offsetFile = join(dir, 'clock-offset-ms');
  let server: RunningServer;
  let browser: Browser;
  let watched: WatchedPage;
  let page: Page;
  let key: string;
  let item: Snapshot;
  let launching: Promise<Browser> | null = null;
  let bucketName: Promise<string>;

  const api = async <T>(path: string): Promise<T> => {
    const response = await fetch(`${server.baseUrl}${path}`, {
      headers: { Authorization: `ApiKey ${key}` },
    });
    assert.equal(response.status, 200, `${path}: ${await response.clone().text()}`);
    return (await response.json()) as T;
  };
  const snapshot = () => api<Snapshot>(`/v1/pricing/${encodeURIComponent(item.name)}`);
  const shownRows = () =>
    page.$$eval('#market-table tbody tr', (rows) =>
      rows.map((row) => ({
        market: row.getAttribute('data-market') ?? '',
        ask: row.querySelector('[data-field="ask"]')?.textContent ?? '',
        stale: row.querySelector('.stale') !== null,
      })),
    );

  before(async () => {
    writeOffset(offsetFile, 0);
    mkdirSync(SHOTS, { recursive: true });
    launching = launchChromium();
    launching.catch(() => undefined); // awaited below, or closed by after()
    server = await startServer(
      [...SIM_ARGS, '--data', dir, '--terminal-per-minute', String(PER_MINUTE)],
      { env: childEnv({ PRICING_CLOCK_OFFSET_FILE: offsetFile }), timeoutMs: 300_000 },
    );
    key = readFileSync(join(dir, 'demo-key.txt'), 'utf8').trim();
    // A Doppler's phases are listed once a crawling market first polls (its start jitter): looked
    // for from here on, beside the tests before the panel's.
    bucketName = bucketItem(server.baseUrl, key);
    bucketName.catch(() => undefined);
    browser = await launching;
    watched = await openPage(browser, server.baseUrl);
    page = watched.page;
  });

  after(async () => {
    await (await launching?.catch(() => null))?.close();
    await server?.stop('SIGKILL');
  });

  test('search as you type, arrows and Enter open the item', async () => {
    // The popular band's history is written beside the first polls; its end is logged.
    await eventually(
      async () => (/backfill finished/.test(server.output()) ? true : null),
      240_000,
      'the popular backfill band written',
    );
    // An item the simulator quotes fresh on three markets, with stored history to chart.
    item = await eventually(
      async () => {
        const page1 = await api<{ data: Snapshot[] }>('/v1/items?perPage=100');
        const quoted = page1.data.filter((s) => s.freshMarketCount >= 3 && s.buyOrders.length > 0);
        // The one with the most stored history (a backfilled item charts a real curve).
        let best: { candidate: Snapshot; points: number } | null = null;
        for (const candidate of quoted.slice(0, 30)) {
          const path = `/v1/pricing/${encodeURIComponent(candidate.name)}/history?from=now-1d`;
          const points = (await api<{ history: unknown[] }>(path)).history.length;
          if (points > (best?.points ?? 0)) best = { candidate, points };
        }
        if (best) return best.candidate;
        return null;
      },
      120_000,
      'an item quoted fresh on three markets, with history',
    );
    await page.goto(`${server.baseUrl}/`);
    await page.keyboard.press('/');
    const words = item.name
      .replace(/[★|()]/g, ' ')
      .split(/\s+/)
      .filter(Boolean);
    await page.keyboard.type(words.map((word) => word.slice(0, 4)).join(' '));
    await page.waitForSelector(`.result[data-name="${item.name.replace(/"/g, '\\"')}"]`);
    for (let step = 0; step < 10; step += 1) {
      const selected = await page.getAttribute('.result.selected', 'data-name');
      if (selected === item.name) break;
      await page.keyboard.press('ArrowDown');
    }
    await page.screenshot({ path: join(SHOTS, 'terminal-search.png') });
    await page.keyboard.press('Enter');
    await page.waitForSelector('#market-table tbody tr');
    assert.equal(await page.textContent('#item-name'), item.name);
    assert.match(decodeURIComponent(new URL(page.url()).hash), /^#\/item\/cs2\//);
  });

  test('the per-market table shows the API prices; depth and history charts hold data', async () => {
    // Each answer the page reads is shown as received: every ask cell is the API's price.
    await eventually(
      async () => {
        // A reload reads the item at once instead of at the page's next refresh (10 s).
        const [response] = await Promise.all([
          page.waitForResponse((r) => r.url().includes('/terminal/api/item?')),
          page.reload(),
        ]);
        const data = (await response.json()) as { pricing: Snapshot };
        const expected = data.pricing.markets.map((q) => [q.market, shownDollars(q.price)]);
        const shown = await page
          .waitForFunction(
            (pairs) =>
              pairs.every(
                ([market, text]) =>
                  document.querySelector(
                    `#market-table tr[data-market="${market}"] [data-field="ask"]`,
                  )?.textContent === text,
              ),
            expected,
            // Under the page's 10 s refresh: a refresh with other prices starts another round.
            { timeout: 8_000 },
          )
          .then(() => true)
          .catch(() => null);
        return expected.length > 0 ? shown : null;
      },
      // A hang guard: chromium renders far slower on a starved machine.
      180_000,
      'the table shows the prices the page received',
    );
    const depthPoints = await page.waitForFunction(() =>
      Number(document.querySelector('[data-chart="depth"]')?.getAttribute('data-points')),
    );
    assert.ok(Number(await depthPoints.jsonValue()) > 0, 'depth points');
    // The history refreshes every minute: allow one refresh on a slow machine.
    const historyPoints = await page.waitForFunction(
      () => Number(document.querySelector('[data-chart="history"]')?.getAttribute('data-points')),
      undefined,
      { timeout: 90_000 },
    );
    assert.ok(Number(await historyPoints.jsonValue()) > 0, 'history points');
    assert.ok((await page.$$('[data-chart="depth"] canvas')).length > 0, 'depth canvas');
    assert.ok((await page.$$('[data-chart="history"] canvas')).length > 0, 'history canvas');
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 1280, `fits 1280 px (scrollWidth ${width})`);
    await page.screenshot({ path: join(SHOTS, 'terminal-item.png'), fullPage: true });
  });

  test('a price change in the book appears on the open page without a reload', async () => {
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 42));
    const before = new Map((await shownRows()).map((row) => [row.market, row.ask]));
    // Ten simulated minutes on: every market is due for a poll and quotes a moved price.
    writeOffset(offsetFile, 10 * MINUTE);
    await eventually(
      async () => {
        const [current, rows] = await Promise.all([snapshot(), shownRows()]);
        const shownMove = current.markets.find((q) => {
          const text = shownDollars(q.price);
          const was = before.get(q.market);
          return (
            was !== undefined &&
            was !== text &&
            rows.some((r) => r.market === q.market && r.ask === text)
          );
        });
        return shownMove ?? null;
      },
      180_000,
      'a moved ask, equal to the API, on the open page',
    );
    assert.equal(await page.evaluate(() => (window as unknown as { marker: number }).marker), 42);
  });

  test('the float / phase buckets panel shows the API buckets, kept current by polling', async () => {
    // A page of its own, with Playwright's clock to bring its refreshes forward.
    const own = await openPage(browser, server.baseUrl);
    await own.page.clock.install();
    await checkBucketsPanel(own.page, server.baseUrl, await bucketName);
    assert.deepEqual(own.errors, []);
    await own.page.close();
  });

  test('the markets board shows 48 health bars for every market', async () => {
    await page.goto(`${server.baseUrl}/#/markets/cs2`);
    await page.waitForSelector('#markets-table tbody tr');
    const health = await (await fetch(`${server.baseUrl}/v1/markets/health`)).json();
    const bars = await page.$$eval('#markets-table tbody tr', (rows) =>
      rows.map((row) => row.querySelectorAll('.bars .bar').length),
    );
    assert.equal(bars.length, (health as unknown[]).length);
    assert.ok(
      bars.every((count) => count === 48),
      `48 bars each: ${bars.join(',')}`,
    );
    await page.screenshot({ path: join(SHOTS, 'terminal-markets.png'), fullPage: true });
  });

  test('a stale market is marked stale, a fresh one is not', async () => {
    await page.goto(`${server.baseUrl}/#/item/cs2/${encodeURIComponent(item.name)}`);
    await page.waitForSelector('#market-table tbody tr');
    // 45 minutes on: quotes fetched before the jump are over 30 minutes old until re-polled.
    writeOffset(offsetFile, 45 * MINUTE);
    await eventually(
      async () => {
        const [rows, current] = await Promise.all([shownRows(), snapshot()]);
        const stale = new Set(
          [...current.markets, ...current.buyOrders].filter((q) => q.isStale).map((q) => q.market),
        );
        if (stale.size === 0) return null;
        const agree = rows.every((row) => row.stale === stale.has(row.market));
        return agree ? true : null;
      },
      // A hang guard: the page agrees after its next refresh (10 s) unless a market re-polled
      // in between, and the slowest markets stay stale for minutes.
      120_000,
      'the page marks exactly the stale markets',
    );
  });

  test('phone width: one column, nothing wider than the screen', async () => {
    const phone = await openPage(browser, server.baseUrl, { width: 390, height: 844 });
    await phone.page.goto(`${server.baseUrl}/#/item/cs2/${encodeURIComponent(item.name)}`, {
      waitUntil: 'domcontentloaded',
    });
    await phone.page.waitForSelector('#market-table tbody tr');
    const width = await phone.page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 390, `fits 390 px (scrollWidth ${width})`);
    assert.deepEqual(phone.errors, []);
    await phone.page.close();
  });

  test('no console errors on the way', () => {
    assert.deepEqual(watched.errors, []);
  });

  test('screenshots were written', () => {
    for (const name of ['terminal-search.png', 'terminal-item.png', 'terminal-markets.png']) {
      assert.ok(statSync(join(SHOTS, name)).size > 10_000, name);
    }
  });

  test('the terminal routes answer 429 past the per-IP limit', async () => {
    const url = `${server.baseUrl}/terminal/api/search?game=cs2&q=ak`;
    let refused: Response | null = null;
    // Batches of 50 at once: the limit is counted per minute, so a slow machine still fills it.
    for (let sent = 0; sent < 3 * PER_MINUTE && !refused; sent += 50) {
      const batch = await Promise.all(Array.from({ length: 50 }, () => fetch(url)));
      for (const response of batch) {
        if (response.status === 429) refused ??= response;
        else {
          assert.equal(response.status, 200);
          await response.arrayBuffer();
        }
      }
    }
    assert.ok(refused, `a 429 within ${3 * PER_MINUTE} requests`);
    assert.ok(Number(refused.headers.get('retry-after')) > 0);
    const body = (await refused.json()) as { code: string };
    assert.equal(body.code, 'RATE_LIMITED');
  });
});
