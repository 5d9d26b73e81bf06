/**
 * The browser test's check of the item page's float / phase buckets panel: for an item the
 * simulator lists with floats and Doppler phases, every bucket the page received from
 * /terminal/api/buckets is shown in its market's table for its attribute kind, with its ask
 * and bid in dollars and its listing count, and the panel is fed again by the page's polling.
 */
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { ITEM_REFRESH_MS } from '../src/web/item-view.ts';
import { eventually, shownDollars } from './terminal-browser-support.ts';

interface Snapshot {
  items: { marketHashName: string }[];
}

/**
 * A Doppler the simulator lists with phases: the docs' example when it is in the simulated
 * universe (a full `npm start`), else the first item with phase buckets in the keyed snapshot.
 */
export async function bucketItem(baseUrl: string, key: string): Promise<string> {
  return eventually(
    async () => {
      const url = `${baseUrl}/v1/attribute-prices/latest?attributes=tag&limit=1000`;
      const response = await fetch(url, { headers: { Authorization: `ApiKey ${key}` } });
      assert.equal(response.status, 200);
      const names = ((await response.json()) as Snapshot).items.map((i) => i.marketHashName);
      return names.includes(README_ITEM) ? README_ITEM : (names[0] ?? null);
    },
    // Hang guard: by default listings are crawled a slice per poll, and a Doppler took 12 s on a
    // quiet machine and over 120 s once while the whole suite loaded both cores.
    240_000,
    'an item with phase buckets',
  );
}

const README_ITEM = '★ Karambit | Doppler (Factory New)';

interface BucketsAnswer {
  items: {
    market: string;
    buckets: {
      bucketId: string;
      attributeTypes: string[];
      askCents: number;
      bidCents: number | null;
      askListingCount: number | null;
    }[];
  }[];
}

type Row = [
  market: string,
  kind: string,
  bucketId: string,
  ask: string,
  count: string,
  bid: string,
];

function expectedRows(answer: BucketsAnswer): Row[] {
  return answer.items.flatMap((entry) =>
    entry.buckets.map((bucket): Row => [
      entry.market,
      bucket.attributeTypes.join('+'),
      bucket.bucketId,
      shownDollars(bucket.askCents),
      bucket.askListingCount === null ? '—' : String(bucket.askListingCount),
      bucket.bidCents === null ? '—' : shownDollars(bucket.bidCents),
    ]),
  );
}

/** The panel groups by kind, so rows are compared as a set. */
const sameRows = (a: string[][], b: string[][]) =>
  JSON.stringify(a.map((r) => JSON.stringify(r)).sort()) ===
  JSON.stringify(b.map((r) => JSON.stringify(r)).sort());

// No named helpers inside the evaluated function: tsx would wrap them in __name, unknown to the page.
const shownRows = (page: Page) =>
  page.$$eval('#buckets .bucket-market', (blocks) =>
    blocks.flatMap((block) =>
      [...block.querySelectorAll('table[data-attribute] tbody tr')].map((row) => [
        block.getAttribute('data-market') ?? '',
        row.closest('table')?.getAttribute('data-attribute') ?? '',
        row.getAttribute('data-bucket') ?? '',
        ...['ask', 'listings', 'bid'].map(
          (field) => row.querySelector(`[data-field="${field}"]`)?.textContent ?? '',
        ),
      ]),
    ),
  );

/**
 * Opens the bucket item and checks the panel against the answers the page reads. The page's
 * clock must be Playwright's, installed before it loaded: each refresh is brought forward with
 * it instead of waited for (ITEM_REFRESH_MS, 10 s).
 */
export async function checkBucketsPanel(page: Page, baseUrl: string, name: string): Promise<void> {
  const answers = () =>
    page.waitForResponse((r) => r.url().includes('/terminal/api/buckets?'), { timeout: 15_000 });
  const first = answers();
  await page.goto(`${baseUrl}/#/item/cs2/${encodeURIComponent(name)}`);
  await first;
  // Rendered, so the next refresh is scheduled.
  await page.waitForSelector('#item-status.live');
  let last: { expected: Row[]; rows: string[][] } = { expected: [], rows: [] };
  const shown = await eventually(
    async () => {
      const next = answers();
      await page.clock.fastForward(ITEM_REFRESH_MS);
      const answer = (await (await next).json()) as BucketsAnswer;
      const expected = expectedRows(answer);
      if (expected.length === 0) return null;
      // Until the page has rendered this answer (a starved machine takes longer than a fixed
      // half second); a few seconds without it start another round with the next refresh.
      const renderedBy = performance.now() + 5_000;
      for (;;) {
        const rows = await shownRows(page);
        last = { expected, rows };
        if (sameRows(rows, expected)) return rows;
        if (performance.now() > renderedBy) return null;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    // A hang guard only.
    180_000,
    'the buckets panel shows every bucket the page received',
  ).catch((error: Error) => {
    const sample = (rows: string[][]) => JSON.stringify(rows.slice(0, 3));
    const detail = `${last.expected.length} received, e.g. ${sample(last.expected)}; ${last.rows.length} shown, e.g. ${sample(last.rows)}`;
    throw new Error(`${error.message} (${detail})`);
  });
  const kinds = new Set(shown.map((row) => row[1]));
  assert.ok(kinds.has('float'), `float bands shown: ${[...kinds].join(', ')}`);
  assert.ok(kinds.has('tag'), `Doppler phases shown: ${[...kinds].join(', ')}`);
  assert.ok(
    shown.every((row) => /^\$[\d,]+\.\d\d$/.test(row[3] ?? '')),
    'asks in dollars, two decimals',
  );
}
