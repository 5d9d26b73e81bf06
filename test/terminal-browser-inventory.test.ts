/**
 * The terminal's inventory page in a real browser (playwright-core driving Debian's chromium)
 * against the real `pricing serve --source sim` whose inventory source is a loopback stand-in of
 * Steam's endpoint (`--inventory-url`): a Steam ID typed in gives the valued table and the
 * totals exactly as the page received them (a missing price "—", stale, unpriced, not
 * marketable and unknown items said so); a private inventory shows its sentence; the page fits a
 * phone; no console errors. The screenshot goes to $TERMINAL_SCREENSHOTS or a temp dir.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page, Response } from 'playwright-core';
import {
  OWNER,
  PRIVATE_OWNER,
  startInventoryStandIn,
  type StandIn,
} from '../src/inventory/test-fixtures.ts';
import { CATALOG_CUT, startServer, tempDataDir, type RunningServer } from './cli-helpers.ts';
import {
  launchChromium,
  openPage,
  shownDollars,
  type WatchedPage,
} from './terminal-browser-support.ts';

const SIM_ARGS = [
  ...CATALOG_CUT,
  '--source',
  'sim',
  '--backfill-days',
  '0.1',
  '--backfill-items',
  '5',
  '--sim-items',
  '300',
];
const SHOTS = process.env.TERMINAL_SCREENSHOTS ?? mkdtempSync(join(tmpdir(), 'terminal-shots-'));

interface Quote {
  market: string;
  price: number;
}
interface Served {
  id: string;
  status: string;
  error?: string;
  items?: {
    assetId: string;
    marketHashName: string;
    marketable: boolean;
    canonicalItemId: string | null;
  }[];
  valuation?: {
    items: {
      assetId: string;
      catalogName: string | null;
      bestAsk: Quote | null;
      bestCashBid: Quote | null;
      suggestedPrice: number | null;
      isStale: boolean;
    }[];
    listValueCents: number | null;
    instantCashCents: number | null;
    walletValueCents: number | null;
    unpricedCount: number;
  };
}

const money = (cents: number | null) => (cents === null ? '—' : shownDollars(cents));
const quoted = (quote: Quote | null) =>
  quote === null ? '—' : `${shownDollars(quote.price)} ${quote.market}`;

describe('terminal inventory page in chromium', () => {
  const dir = tempDataDir();
  let standIn: StandIn;
  let server: RunningServer;
  let browser: Browser;
  let watched: WatchedPage;
  let page: Page;
  let valuedId = '';

  before(async () => {
    mkdirSync(SHOTS, { recursive: true });
    standIn = await startInventoryStandIn();
    server = await startServer(
      [...SIM_ARGS, '--data', dir, '--inventory-url', standIn.origin],
      300_000,
    );
    browser = await launchChromium();
    watched = await openPage(browser, server.baseUrl);
    page = watched.page;
  });
  after(async () => {
    await browser?.close();
    await server?.stop('SIGKILL');
    await standIn?.close();
  });

  /** Types a Steam ID, submits, and resolves with the first ended snapshot the page read. */
  async function valueInventory(steamId: string): Promise<Served> {
    await page.goto(`${server.baseUrl}/#/inventory`);
    await page.fill('#steam-id', steamId);
    const ended = page.waitForResponse(
      async (response: Response) =>
        response.url().includes('/terminal/api/inventory/') &&
        ['COMPLETED', 'FAILED'].includes(((await response.json()) as Served).status),
      { timeout: 60_000 },
    );
    await page.click('#inventory-form button[type="submit"]');
    return (await (await ended).json()) as Served;
  }

  test('a Steam ID in: the valued table and the totals the page received', async () => {
    const served = await valueInventory(OWNER);
    assert.equal(served.status, 'COMPLETED', served.error);
    valuedId = served.id;
    const valuation = served.valuation!;
    await page.waitForSelector('#inventory-table tbody tr');
    const totals = await page.$$eval('#inventory-totals [data-field]', (stats) =>
      Object.fromEntries(
        stats.map((stat) => [
          stat.getAttribute('data-field'),
          stat.querySelector('.value')?.textContent,
        ]),
      ),
    );
    assert.equal(totals['list-value'], money(valuation.listValueCents));
    assert.equal(totals['instant-cash'], money(valuation.instantCashCents));
    assert.equal(totals['wallet-value'], money(valuation.walletValueCents));
    assert.equal(totals.unpriced, String(valuation.unpricedCount));

    const rows = await page.$$eval('#inventory-table tbody tr', (trs) =>
      trs.map((tr) => ({
        assetId: tr.getAttribute('data-asset'),
        name: tr.querySelector('td')?.textContent,
        ask: tr.querySelector('[data-field="ask"]')?.textContent,
        cash: tr.querySelector('[data-field="cash"]')?.textContent,
        suggested: tr.querySelector('[data-field="suggested"]')?.textContent,
        notes: tr.querySelector('[data-field="notes"]')?.textContent,
      })),
    );
    assert.equal(rows.length, served.items!.length);
    const valued = new Map(valuation.items.map((item) => [item.assetId, item]));
    for (const item of served.items!) {
      const row = rows.find((entry) => entry.assetId === item.assetId)!;
      const value = valued.get(item.assetId)!;
      assert.equal(row.name, value.catalogName ?? item.marketHashName, `name of ${item.assetId}`);
      assert.equal(row.ask, quoted(value.bestAsk), `ask of ${item.assetId}`);
      assert.equal(row.cash, quoted(value.bestCashBid), `cash bid of ${item.assetId}`);
      assert.equal(row.suggested, money(value.suggestedPrice), `suggested of ${item.assetId}`);
      const notes = !item.marketable
        ? 'not marketable'
        : item.canonicalItemId === null
          ? 'not in catalog'
          : value.bestAsk === null && value.bestCashBid === null
            ? 'unpriced'
            : value.isStale
              ? 'STALE'
              : '';
      assert.equal(row.notes, notes, `notes of ${item.assetId}`);
    }
    assert.equal(rows.find((row) => row.assetId === '106')!.notes, 'not marketable');
    await page.screenshot({ path: join(SHOTS, 'terminal-inventory.png'), fullPage: true });
  });

  test('a private inventory shows its sentence', async () => {
    const served = await valueInventory(PRIVATE_OWNER);
    assert.equal(served.status, 'FAILED');
    await page.waitForSelector('#inventory-status[data-status="FAILED"]');
    assert.equal(await page.textContent('#inventory-status'), 'The inventory is private.');
    assert.equal(await page.$('#inventory-table'), null);
  });

  test('phone width: a bookmarked valued inventory fits the screen', async () => {
    const phone = await openPage(browser, server.baseUrl, { width: 390, height: 844 });
    await phone.page.goto(`${server.baseUrl}/#/inventory/${valuedId}`);
    await phone.page.waitForSelector('#inventory-table tbody tr');
    assert.equal(
      await phone.page.inputValue('#steam-id'),
      OWNER,
      'a bookmarked snapshot fills the form',
    );
    const width = await phone.page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 390, `fits 390 px (scrollWidth ${width})`);
    assert.deepEqual(phone.errors, []);
    await phone.page.close();
  });

  test('no console errors on the way', () => {
    assert.deepEqual(watched.errors, []);
  });
});
