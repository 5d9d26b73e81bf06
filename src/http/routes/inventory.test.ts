import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { manualClock, MINUTE } from '../../domain/clock.ts';
import { DEFAULT_FEE_MODEL, feesFor } from '../../markets/fees.ts';
import { sellerNets } from '../../pricing/execution.ts';
import { InventoryService } from '../../inventory/service.ts';
import { createSteamInventorySource } from '../../inventory/steam-source.ts';
import {
  HTML_OWNER,
  inventoryCatalogItems,
  KARAMBIT_CERTIFICATE,
  LIMITED_OWNER,
  OWNER,
  PRIVATE_OWNER,
  startInventoryStandIn,
  UNKNOWN_OWNER,
  type StandIn,
} from '../../inventory/test-fixtures.ts';
import { createSqliteInventoryStore } from '../../store/sqlite/inventory-store.ts';
import {
  auth,
  buildHarness,
  KEYS,
  RUST_ITEMS,
  T0,
  testCatalog,
  type Harness,
} from '../test-support.ts';

interface Served {
  id: string;
  status: string;
  itemCount?: number;
  unresolvedCount?: number;
  inspectedCount?: number;
  error?: string;
  items?: Record<string, unknown>[];
  valuation?: Record<string, unknown>;
}

describe('inventory routes against a loopback stand-in of the Steam endpoint', () => {
  let standIn: StandIn;
  let harness: Harness;
  let service: InventoryService;
  const clock = manualClock(T0);

  before(async () => {
    standIn = await startInventoryStandIn();
    const catalogs = {
      cs2: testCatalog('cs2', inventoryCatalogItems()),
      rust: testCatalog('rust', RUST_ITEMS),
    };
    service = new InventoryService({
      store: createSqliteInventoryStore(':memory:'),
      source: createSteamInventorySource({ origin: standIn.origin, clock, pageSize: 4 }),
      catalogs,
      clock,
      fetchesPerHour: 11,
    });
    harness = await buildHarness({ clock, catalogs, inventory: service });
  });
  after(async () => {
    await harness.app.close();
    await standIn.close();
  });

  const post = async (path: string, body: unknown, key: string = KEYS.pro) =>
    harness.app.inject({ method: 'POST', url: path, headers: auth(key), payload: body as object });
  const get = async (path: string, key: string = KEYS.pro) =>
    harness.app.inject({ method: 'GET', url: path, headers: auth(key) });

  async function fetched(steamId: string, path = '/v1/inventory/fetch', extra = {}) {
    const response = await post(path, { targetSteamId: steamId, ...extra });
    assert.equal(response.statusCode, 200, response.body);
    const pending = response.json<Served>();
    assert.equal(pending.status, 'PENDING');
    await service.settled(pending.id);
    return (await get(`/v1/inventory/snapshot/${pending.id}`)).json<Served>();
  }

  test('two pages are fetched, joined and resolved; stickers, float and Doppler phase kept', async () => {
    const at = clock.now();
    harness.quote('ask', 'cs2-redline-ft', 'csfloat', [1000], at - MINUTE);
    harness.quote('bid', 'cs2-redline-ft', 'buff163', [900, 850], at - MINUTE);
    harness.quote('bid', 'cs2-redline-ft', 'steamcommunity', [950], at - MINUTE);
    harness.quote('ask', 'cs2-karambit-doppler-ruby-fn', 'skinport', [500_000], at - MINUTE);
    const snapshot = await fetched(OWNER);
    assert.equal(snapshot.status, 'COMPLETED', snapshot.error);
    assert.equal(snapshot.itemCount, 7);
    assert.equal(
      snapshot.unresolvedCount,
      2,
      'the Souvenir AWP and the medal are not in the catalog',
    );
    assert.deepEqual(
      standIn.requests.filter((path) => path.includes(OWNER)),
      [
        `/inventory/${OWNER}/730/2?l=english&count=4`,
        `/inventory/${OWNER}/730/2?l=english&count=4&start_assetid=104`,
      ],
    );
    const byAsset = new Map(snapshot.items!.map((item) => [item.assetId, item]));
    const redline = byAsset.get('101')!;
    assert.deepEqual(redline.stickers, [
      { slot: 0, name: 'Crown (Foil)' },
      { slot: 1, name: 'Howling Dawn' },
    ]);
    assert.equal(redline.floatValue, 0.2517);
    assert.equal(redline.paintSeed, 661);
    assert.match(String(redline.inspectLink), new RegExp(`S${OWNER}A101D`));
    assert.equal(redline.exterior, 'Field-Tested');
    assert.equal(byAsset.get('103')!.canonicalItemId, 'cs2-st-redline-ft');
    assert.equal(byAsset.get('103')!.quality, 'StatTrak™');
    const karambit = byAsset.get('104')!;
    assert.equal(
      karambit.inspectLink,
      `steam://run/730//+csgo_econ_action_preview%20${KARAMBIT_CERTIFICATE}`,
      "Steam's %propid:6% placeholder filled from the asset's item certificate",
    );
    assert.equal(
      karambit.canonicalItemId,
      'cs2-karambit-doppler-p2-fn',
      'paint index 419 read from the link',
    );
    assert.equal(
      karambit.floatValue,
      undefined,
      'a plain fetch takes only the paint index from the link',
    );
    assert.equal(byAsset.get('107')!.canonicalItemId, 'cs2-karambit-doppler-ruby-fn');
    assert.equal(byAsset.get('105')!.canonicalItemId, null);
    assert.equal(byAsset.get('106')!.marketable, false);

    const valuation = snapshot.valuation!;
    const valuedKarambit = (
      valuation.items as { assetId: string; catalogName: string | null }[]
    ).find((item) => item.assetId === '104')!;
    assert.equal(valuedKarambit.catalogName, '★ Karambit | Doppler Phase 2 (Factory New)');
    const buff = feesFor(DEFAULT_FEE_MODEL, 'buff163');
    const steam = feesFor(DEFAULT_FEE_MODEL, 'steamcommunity');
    const cash = Math.min(sellerNets(900, buff), 1000) + Math.min(sellerNets(850, buff), 1000);
    assert.equal(valuation.instantCashCents, cash, 'two units walk two buff163 levels');
    assert.equal(valuation.listValueCents, 2 * 1000 + 500_000);
    assert.equal(valuation.walletValueCents, sellerNets(950, steam), 'one wallet level, one unit');
    assert.equal(valuation.notMarketableCount, 1);
    assert.equal(valuation.unpricedCount, 3, 'StatTrak, the Doppler Phase 2 and the Souvenir');
    assert.deepEqual(valuation.bestCashMarket, {
      market: 'buff163',
      cashCents: cash,
      itemsCovered: 1,
    });
    const direct = await get(`/v1/inventory/snapshot/${snapshot.id}/valuation`);
    assert.equal(direct.json<{ instantCashCents: number }>().instantCashCents, cash);
    harness.quote('ask', 'cs2-redline-ft', 'csfloat', [1200], at);
    const later = await get(`/v1/inventory/snapshot/${snapshot.id}/valuation`);
    assert.equal(
      later.json<{ listValueCents: number }>().listValueCents,
      2 * 1200 + 500_000,
      'priced at the read: the snapshot keeps items, not prices',
    );
  });

  test('a second fetch inside the cache window sends nothing to Steam; a fetch counts as one request', async () => {
    const before = standIn.requests.length;
    const remaining = (response: { headers: Record<string, unknown> }) =>
      Number(response.headers['x-ratelimit-remaining']);
    const history = await get(`/v1/inventory/history/${OWNER}`);
    assert.ok(remaining(history) > 0, 'the quota header is served');
    const started = await post('/v1/inventory/fetch', { targetSteamId: OWNER });
    assert.equal(remaining(started), remaining(history) - 1);
    await service.settled(started.json<Served>().id);
    const read = await get(`/v1/inventory/snapshot/${started.json<Served>().id}`);
    assert.equal(read.json<Served>().status, 'COMPLETED');
    assert.equal(remaining(read), remaining(started) - 1, 'the fetch work itself costs nothing');
    assert.equal(standIn.requests.length, before);
  });

  for (const [owner, sentence] of [
    [PRIVATE_OWNER, 'The inventory is private.'],
    [HTML_OWNER, 'Steam answered the inventory request with a non-JSON page.'],
    [UNKNOWN_OWNER, 'Steam knows no inventory for this Steam ID.'],
    [LIMITED_OWNER, 'Steam is rate limiting inventory requests; try again later.'],
  ] as const) {
    test(`${sentence} ends FAILED with that sentence`, async () => {
      const snapshot = await fetched(owner);
      assert.equal(snapshot.status, 'FAILED');
      assert.equal(snapshot.error, sentence);
      const status = (await get(`/v1/inventory/snapshot/${snapshot.id}/status`)).json<Served>();
      assert.deepEqual(status, { id: snapshot.id, status: 'FAILED', error: sentence });
      assert.equal((await get(`/v1/inventory/snapshot/${snapshot.id}/valuation`)).statusCode, 404);
    });
  }

  test('a 429 blocks the source for its Retry-After', async () => {
    const blocked = await fetched(UNKNOWN_OWNER);
    assert.equal(blocked.error, 'The inventory request budget is spent; try again later.');
    clock.advance(31_000);
    assert.equal(
      (await fetched(UNKNOWN_OWNER)).error,
      'Steam knows no inventory for this Steam ID.',
    );
  });

  test('advanced fetch fills float and seed from asset properties or the inspect link, up to maxInspections', async () => {
    const snapshot = await fetched(OWNER, '/v1/inventory/fetch/advanced', { maxInspections: 2 });
    assert.equal(snapshot.status, 'COMPLETED');
    assert.equal(snapshot.inspectedCount, 2);
    assert.equal(snapshot.items!.filter((item) => item.inspectedAt).length, 2);
    const all = await fetched(OWNER, '/v1/inventory/fetch/advanced', { maxInspections: 10 });
    assert.equal(all.inspectedCount, 3, 'assets 101 and 107 by properties, 104 by its link');
    const karambit = all.items!.find((item) => item.assetId === '104')!;
    assert.equal(karambit.floatValue, Math.fround(0.0089));
    assert.equal(karambit.paintSeed, 412);
    assert.equal(karambit.paintIndex, 419);
    assert.equal(karambit.canonicalItemId, 'cs2-karambit-doppler-p2-fn');
    assert.equal(karambit.inspectedAt, new Date(clock.now()).toISOString());
    const rust = await post('/v1/inventory/fetch/advanced', {
      targetSteamId: OWNER,
      appId: 252490,
    });
    assert.equal(rust.statusCode, 400);
  });

  test('history pages newest first without items', async () => {
    const page = (await get(`/v1/inventory/history/${OWNER}?limit=2&offset=0`)).json<{
      snapshots: Served[];
      total: number;
    }>();
    assert.equal(page.total, 4);
    assert.equal(page.snapshots.length, 2);
    assert.ok(page.snapshots.every((entry) => entry.items === undefined));
  });

  test('bad input is 400 in the one envelope; Developer keys are refused; fetches per hour are bounded', async () => {
    const bad = await post('/v1/inventory/fetch', { targetSteamId: '12345' });
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json<{ code: string }>().code, 'INVALID_PARAMETER');
    assert.equal((await get('/v1/inventory/history/abc')).statusCode, 400);
    assert.equal((await get('/v1/inventory/snapshot/nope')).statusCode, 404);
    const dev = await post('/v1/inventory/fetch', { targetSteamId: OWNER }, KEYS.developer);
    assert.equal(dev.statusCode, 403);
    await post('/v1/inventory/fetch', { targetSteamId: OWNER });
    const over = await post('/v1/inventory/fetch', { targetSteamId: OWNER });
    assert.equal(over.statusCode, 429, over.body);
    clock.advance(61 * MINUTE);
    const later = await post('/v1/inventory/fetch', { targetSteamId: OWNER });
    assert.equal(later.statusCode, 200, later.body);
  });
});
