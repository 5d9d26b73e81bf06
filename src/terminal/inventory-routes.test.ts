/**
 * The terminal's keyless inventory routes through app.inject against a loopback stand-in of
 * Steam's inventory endpoint: a fetch started without a key, its snapshot and valuation as the
 * key-gated routes serve them, failures as sentences, the keyless share of Steam's request
 * budget, 400 / 404 / 503, and the per-hour fetch limit held per client IP.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { manualClock, MINUTE } from '../domain/clock.ts';
import { InventoryService } from '../inventory/service.ts';
import { createSteamInventorySource } from '../inventory/steam-source.ts';
import {
  inventoryCatalogItems,
  OWNER,
  PRIVATE_OWNER,
  startInventoryStandIn,
  UNKNOWN_OWNER,
  type StandIn,
} from '../inventory/test-fixtures.ts';
import {
  auth,
  buildHarness,
  KEYS,
  RUST_ITEMS,
  T0,
  testCatalog,
  type Harness,
} from '../http/test-support.ts';
import { createSqliteInventoryStore } from '../store/sqlite/inventory-store.ts';
import { terminalRoutes } from './index.ts';
import { terminalAccountOf } from './inventory-routes.ts';

const FETCHES_PER_HOUR = 4;
/** The stand-in owner's two pages and the private profile's one. */
const KEYLESS_PAGES = 3;

interface Served {
  id: string;
  status: string;
  error?: string;
  items?: { assetId: string }[];
  valuation?: { instantCashCents: number | null; items: unknown[] };
}

describe('terminal inventory routes', () => {
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
      source: createSteamInventorySource({
        origin: standIn.origin,
        clock,
        keylessRequests: KEYLESS_PAGES,
      }),
      catalogs,
      clock,
      fetchesPerHour: FETCHES_PER_HOUR,
    });
    harness = await buildHarness({ clock, catalogs, inventory: service }, [terminalRoutes]);
  });
  after(async () => {
    await harness.app.close();
    await standIn.close();
  });

  const start = (steamId: string, remoteAddress = '203.0.113.7') =>
    harness.app.inject({
      method: 'POST',
      url: '/terminal/api/inventory',
      payload: { steamId },
      remoteAddress,
    });
  const read = async (id: string) =>
    (await harness.app.inject({ url: `/terminal/api/inventory/${id}` })).json<Served>();

  async function completed(steamId: string): Promise<Served> {
    const response = await start(steamId);
    assert.equal(response.statusCode, 200, response.body);
    const pending = response.json<Served>();
    assert.equal(pending.status, 'PENDING');
    await service.settled(pending.id);
    return read(pending.id);
  }

  test('a keyless fetch is served as the key-gated snapshot, valuation priced at the read', async () => {
    const at = clock.now();
    harness.quote('ask', 'cs2-redline-ft', 'csfloat', [1000], at - MINUTE);
    harness.quote('bid', 'cs2-redline-ft', 'buff163', [900, 850], at - MINUTE);
    const shown = await completed(OWNER);
    assert.equal(shown.status, 'COMPLETED', shown.error);
    assert.equal(shown.items!.length, 7);
    const keyed = await harness.app.inject({
      url: `/v1/inventory/snapshot/${shown.id}`,
      headers: auth(KEYS.pro),
    });
    assert.deepEqual(shown, keyed.json(), 'the same body as GET /v1/inventory/snapshot/:id');
    assert.ok(shown.valuation!.instantCashCents! > 0);
    const stored = await service.get(shown.id);
    assert.equal(stored!.accountId, terminalAccountOf('203.0.113.7'));
    assert.doesNotMatch(stored!.accountId, /203\.0\.113\.7/, 'the client address is not stored');
  });

  test('a private inventory ends FAILED with its sentence', async () => {
    const shown = await completed(PRIVATE_OWNER);
    assert.deepEqual(
      { status: shown.status, error: shown.error, items: shown.items },
      { status: 'FAILED', error: 'The inventory is private.', items: undefined },
    );
  });

  test("keyless fetches use only their share of Steam's request budget; keyed ones keep the rest", async () => {
    const keyless = await completed(UNKNOWN_OWNER);
    assert.equal(
      keyless.error,
      'The keyless share of the inventory request budget is spent; try again later.',
    );
    const keyed = await harness.app.inject({
      method: 'POST',
      url: '/v1/inventory/fetch',
      headers: auth(KEYS.pro),
      payload: { targetSteamId: UNKNOWN_OWNER },
    });
    await service.settled(keyed.json<Served>().id);
    const shown = await read(keyed.json<Served>().id);
    assert.equal(shown.error, 'Steam knows no inventory for this Steam ID.', 'Steam was asked');
    clock.advance(MINUTE);
    const later = await completed(UNKNOWN_OWNER);
    assert.equal(later.error, 'Steam knows no inventory for this Steam ID.', 'a minute later');
  });

  test('400 for a bad Steam ID, 404 for an unknown snapshot', async () => {
    const bad = await start('12345');
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.json<{ code: string }>().code, 'INVALID_PARAMETER');
    const missing = await harness.app.inject({ url: '/terminal/api/inventory/nope' });
    assert.equal(missing.statusCode, 404);
  });

  test('the fetches-per-hour limit holds per client IP', async () => {
    for (let index = 0; index < FETCHES_PER_HOUR; index += 1) {
      assert.equal((await start(OWNER, '198.51.100.1')).statusCode, 200);
    }
    const over = await start(OWNER, '198.51.100.1');
    assert.equal(over.statusCode, 429);
    assert.equal((await start(OWNER, '198.51.100.2')).statusCode, 200, 'another IP may fetch');
  });

  test('503 when the process has no inventory source', async () => {
    const bare = await buildHarness({}, [terminalRoutes]);
    const response = await bare.app.inject({
      method: 'POST',
      url: '/terminal/api/inventory',
      payload: { steamId: OWNER },
    });
    assert.equal(response.statusCode, 503);
    await bare.app.close();
  });
});
