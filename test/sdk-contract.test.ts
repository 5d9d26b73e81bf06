/**
 * The official client's contract: the real CLI with the simulator (a small backfill, so history
 * and attribute buckets exist) and a loopback stand-in of Steam's inventory endpoint, then each
 * of the client's 35 methods' requests as the client sends them (its paths, its query keys,
 * arrays as CSV, sdk-contract/sdk-methods.json), and each body checked against the client's
 * published response types (sdk-contract/sdk-types.json). A field the service serves
 * differently on purpose is accepted only when it is listed in sdk-contract/differences.json and
 * named in the docs' "Numbers that may be null" section.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CATALOG_CUT, startServer, tempDataDir, type RunningServer } from './cli-helpers.ts';
import { ShapeChecker, type Mismatch, type TypeTable } from './sdk-contract/shape.ts';
import { OWNER, startInventoryStandIn, type StandIn } from '../src/inventory/test-fixtures.ts';

const DIR = join(import.meta.dirname, 'sdk-contract');
const read = <T>(name: string) => JSON.parse(readFileSync(join(DIR, name), 'utf8')) as T;

interface Method {
  name: string;
  http: 'GET' | 'POST';
  path: string;
  query?: string[];
  body?: string[];
  returns: string;
  yields?: string;
  pages?: { items: string; next: string; param: string };
  chunks?: { param: string; size: number };
  publicBase?: boolean;
}

interface Difference {
  field: string;
  served: string;
  why: string;
}

const SDK_TYPES = read<TypeTable>('sdk-types.json');
const METHODS = read<{ methods: Method[] }>('sdk-methods.json').methods;
const DIFFERENCES = read<{ types: TypeTable['types']; differences: Difference[] }>(
  'differences.json',
);
const CONVENTIONS = join(import.meta.dirname, '..', 'docs', 'api', 'conventions.md');

const SIM_ARGS = [
  '--source',
  'sim',
  '--backfill-days',
  '0.5',
  '--backfill-items',
  '40',
  ...CATALOG_CUT,
];
const ITEM = 'AK-47 | Redline (Field-Tested)';
const DOPPLER = '★ Karambit | Doppler (Factory New)';
const MARKETS = ['buff163', 'csfloat', 'skinport', 'dmarket'];

type Args = Record<string, string | number | string[] | undefined>;

/** What the test passes to each method (the client's parameters, by its names). */
const CALLS: Record<string, (ctx: Context) => Args> = {
  'pricing.get': () => ({ marketHashName: ITEM, markets: MARKETS }),
  'pricing.listings': () => ({ marketHashName: ITEM, limit: 20, markets: MARKETS }),
  'items.search': () => ({ search: 'ak-47 redline', page: 1, perPage: 5 }),
  'items.all': () => ({}),
  'items.searchEach': () => ({ search: 'redline', perPage: 3 }),
  'nbbo.get': () => ({ market_hash_name: ITEM }),
  'nbbo.depth': (ctx) => ({ id: ctx.itemId, depth: 10 }),
  'aggregations.minPrices': () => ({ marketHashNames: [ITEM, DOPPLER] }),
  'aggregations.maxOrders': (ctx) => ({ ids: [ctx.itemId], markets: MARKETS }),
  'aggregations.minPricesAll': (ctx) => ({ ids: ctx.catalogIds }),
  'aggregations.maxOrdersAll': (ctx) => ({ ids: ctx.catalogIds }),
  'arbitrage.opportunities': () => ({ limit: 10, sort: 'spreadBps', candidateLimit: 200 }),
  'attributePrices.latest': () => ({ marketHashName: DOPPLER, attributes: ['tag', 'float'] }),
  'attributePrices.history': (ctx) => ({ bucketIds: ctx.bucketIds, granularity: '10m' }),
  'attributePrices.latestEach': () => ({ limit: 20 }),
  'buff163.latest': () => ({ marketHashName: DOPPLER, attributes: ['tag'] }),
  'buff163.history': (ctx) => ({ bucketId: ctx.buffBucketId, granularity: '1h', limit: 50 }),
  'buff163.latestEach': () => ({ limit: 50 }),
  'history.get': () => ({ marketHashName: ITEM, interval: 'HOUR_1' }),
  'history.byMarket': () => ({ marketHashName: ITEM, markets: ['buff163', 'skinport'] }),
  'liquidity.get': () => ({ marketHashName: ITEM }),
  'liquidity.summary': () => ({ marketHashName: ITEM, market: 'csfloat' }),
  'liquidity.batch': () => ({ marketHashNames: [ITEM, DOPPLER, 'No Such Skin'] }),
  'liquidity.bulk': () => ({}),
  'liquidity.manifest': () => ({}),
  'marketAnalytics.get': () => ({ marketHashName: ITEM, windowHours: 24 }),
  'markets.health': () => ({}),
  'recommendations.get': () => ({ marketHashName: ITEM }),
  'status.freshness': () => ({}),
  'status.marketLatency': () => ({}),
  'inventory.fetch': () => ({ targetSteamId: OWNER, appId: 730, contextId: 2 }),
  'inventory.fetchAdvanced': () => ({ targetSteamId: OWNER, maxInspections: 10 }),
  'inventory.get': (ctx) => ({ snapshotId: ctx.snapshotId }),
  'inventory.status': (ctx) => ({ snapshotId: ctx.snapshotId }),
  'inventory.history': () => ({ steamId: OWNER, limit: 5, offset: 0 }),
};

interface Context {
  itemId: string;
  catalogIds: string[];
  bucketIds: string[];
  buffBucketId: string;
  /** A COMPLETED snapshot of the stand-in inventory. */
  snapshotId: string;
}

/** The client's query rule: arrays as CSV, undefined dropped. */
function queryString(method: Method, args: Args): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(args)) {
    if (value === undefined || method.path.includes(`{${key}}`)) continue;
    assert.ok(method.query?.includes(key), `${method.name} sends no query key ${key}`);
    search.append(key, Array.isArray(value) ? value.join(',') : String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

function pathOf(method: Method, args: Args): string {
  return method.path.replace(/\{(\w+)\}/g, (_, key: string) =>
    encodeURIComponent(String(args[key])),
  );
}

/** The text of the `## <title>` section, up to the next `## ` heading. */
function markdownSection(markdown: string, title: string): string {
  const start = markdown.indexOf(`## ${title}`);
  assert.ok(start >= 0, `no section ${title}`);
  const end = markdown.indexOf('\n## ', start + 3);
  return markdown.slice(start, end < 0 ? undefined : end);
}

const at = (body: unknown, dotted: string): unknown =>
  dotted
    .split('.')
    .reduce<unknown>((value, key) => (value as Record<string, unknown>)?.[key], body);

describe("the official client's 35 methods against the real service", () => {
  const dir = tempDataDir();
  let server: RunningServer;
  let key: string;
  let ctx: Context;
  let standIn: StandIn;
  const accepted = new Set<string>();
  const allowed = Object.fromEntries(DIFFERENCES.differences.map((d) => [d.field, d.served]));
  const checker = new ShapeChecker(
    { aliases: SDK_TYPES.aliases, types: { ...SDK_TYPES.types, ...DIFFERENCES.types } },
    { allowed, onAllowed: (owner) => accepted.add(owner) },
  );

  /** One retry after a network error, as the client retries (a keep-alive race on a busy box). */
  const send = async (url: string, init: RequestInit) => {
    const headers = { Authorization: `ApiKey ${key}`, 'content-type': 'application/json' };
    try {
      return await fetch(url, { ...init, headers });
    } catch {
      return fetch(url, { ...init, headers });
    }
  };

  const fetchJson = async (url: string, init: RequestInit = {}) => {
    const response = await send(url, init);
    const text = await response.text();
    assert.equal(response.status, 200, `${url}: ${text.slice(0, 300)}`);
    return JSON.parse(text) as unknown;
  };

  /** Every request one method makes, and the mismatches of each body. */
  async function drive(method: Method, args: Args): Promise<Mismatch[]> {
    const base = `${server.baseUrl}/v1`;
    if (method.http === 'POST') {
      const body = JSON.stringify(args);
      const response = await fetchJson(`${base}${method.path}`, { method: 'POST', body });
      return checker.check(response, method.returns);
    }
    if (method.chunks) {
      const ids = args[method.chunks.param] as string[];
      const mismatches: Mismatch[] = [];
      for (let start = 0; start < ids.length; start += method.chunks.size) {
        const chunk = {
          ...args,
          [method.chunks.param]: ids.slice(start, start + method.chunks.size),
        };
        const url = `${base}${pathOf(method, chunk)}${queryString(method, chunk)}`;
        mismatches.push(...checker.check(await fetchJson(url), method.returns));
      }
      return mismatches;
    }
    if (!method.pages) {
      const url = `${base}${pathOf(method, args)}${queryString(method, args)}`;
      return checker.check(await fetchJson(url), method.returns);
    }
    const mismatches: Mismatch[] = [];
    let page: Args = { ...args };
    for (let requests = 0; requests < 3; requests += 1) {
      const url = `${base}${pathOf(method, page)}${queryString(method, page)}`;
      const body = await fetchJson(url);
      mismatches.push(...checker.check(body, method.returns));
      for (const item of at(body, method.pages.items) as unknown[]) {
        mismatches.push(...checker.check(item, method.yields!));
      }
      const next = at(body, method.pages.next);
      if (next === null || next === undefined) break;
      page = { ...page, [method.pages.param]: next as string };
    }
    return mismatches;
  }

  /** A fetch of the stand-in inventory, polled until it has ended. */
  async function completedSnapshot(): Promise<string> {
    const base = `${server.baseUrl}/v1`;
    const body = JSON.stringify({ targetSteamId: OWNER });
    const { id } = (await fetchJson(`${base}/inventory/fetch`, { method: 'POST', body })) as {
      id: string;
    };
    for (;;) {
      const { status } = (await fetchJson(`${base}/inventory/snapshot/${id}/status`)) as {
        status: string;
      };
      if (status === 'COMPLETED') return id;
      assert.notEqual(status, 'FAILED');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  /** Waits until the simulator has filled what the methods read. */
  async function ready(): Promise<Context> {
    const base = `${server.baseUrl}/v1`;
    // A hang guard: at load average 50 the ingest worker started 2 minutes after the server
    // listened, and 240 s ran out before buff163's first buckets.
    const deadline = performance.now() + 600_000;
    let waiting = '';
    for (;;) {
      try {
        const latest = (await fetchJson(
          `${base}/attribute-prices/latest?marketHashName=${encodeURIComponent(DOPPLER)}&attributes=tag,float`,
        )) as { items: { market: string; buckets: { bucketId: string }[] }[] };
        const pricing = (await fetchJson(`${base}/pricing/${encodeURIComponent(ITEM)}`)) as {
          canonicalItemId: string;
          markets: unknown[];
        };
        const buff = latest.items.find((entry) => entry.market === 'buff163');
        if (pricing.markets.length > 0 && buff) {
          // The whole-catalog payloads only once the quotes are in: each is a large read.
          const all = (await fetchJson(`${base}/items/all`)) as { id: string }[];
          await fetchJson(`${base}/liquidity/items/manifest`);
          return {
            snapshotId: await completedSnapshot(),
            itemId: pricing.canonicalItemId,
            // More than one request's worth (100), so the batched methods send two.
            catalogIds: all.slice(0, 150).map((row) => row.id),
            bucketIds: latest.items
              .flatMap((entry) => entry.buckets.map((b) => b.bucketId))
              .slice(0, 5),
            buffBucketId: buff.buckets[0]!.bucketId,
          };
        }
        waiting = 'no buff163 bucket for the Doppler or no quote for the item yet';
      } catch (error) {
        waiting = String(error); // a payload not built yet (503)
      }
      if (performance.now() > deadline)
        throw new Error(`not ready (${waiting}):\n${server.output()}`);
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }

  before(async () => {
    standIn = await startInventoryStandIn();
    server = await startServer([...SIM_ARGS, '--data', dir, '--inventory-url', standIn.origin]);
    key = readFileSync(join(dir, 'demo-key.txt'), 'utf8').trim();
    ctx = await ready();
  });
  after(async () => {
    await server?.stop('SIGKILL');
    await standIn?.close();
  });

  test('the facts list 35 methods, each with a call here', () => {
    assert.equal(METHODS.length, 35);
    assert.deepEqual(Object.keys(CALLS).sort(), METHODS.map((method) => method.name).sort());
  });

  for (const method of METHODS) {
    test(`${method.name} → ${method.yields ?? method.returns}`, async () => {
      const mismatches = await drive(method, CALLS[method.name]!(ctx));
      const lines = mismatches
        .slice(0, 20)
        .map((m) => `${m.path} (${m.owner}): expected ${m.expected}, found ${m.found}`);
      assert.deepEqual(lines, [], `${method.name}: ${mismatches.length} mismatches`);
    });
  }

  test('every accepted difference is documented under "Numbers that may be null"', () => {
    const section = markdownSection(readFileSync(CONVENTIONS, 'utf8'), 'Numbers that may be null');
    for (const difference of DIFFERENCES.differences) {
      const field = difference.field.split('.').at(-1)!;
      const named = new RegExp(`\`([\\w.[\\]]*\\.)?${field}\``);
      assert.match(section, named, `${difference.field} is not named in the section`);
    }
    assert.ok(accepted.size > 0);
  });
});
