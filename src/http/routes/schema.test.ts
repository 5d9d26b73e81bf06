import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import type { CatalogItem } from '../../domain/item.ts';
import type { Game } from '../../domain/games.ts';
import { SchemaService } from '../../schema/schema-service.ts';
import { createSqliteSchemaStore } from '../../schema/sqlite-schema-store.ts';
import type { SchemaStore } from '../../schema/schema-store.ts';
import type { SchemaRegistries } from '../../schema/registries.ts';
import { auth, buildHarness, KEYS, T0, testCatalog, type Harness } from '../test-support.ts';

const cs2Items: CatalogItem[] = [
  {
    id: 'cs2_redline_ft',
    game: 'cs2',
    marketHashName: 'AK-47 | Redline (Field-Tested)',
    slug: 'ak-47-redline-field-tested',
    category: 'skin',
    weapon: 'AK-47',
    rarity: 'classified',
    wear: 'Field-Tested',
    collections: ['set_community_2'],
    containers: ['operation-phoenix-weapon-case'],
    floatRange: { min: 0.1, max: 0.7 },
  },
  {
    id: 'cs2_storm_1',
    game: 'cs2',
    marketHashName: 'Desert Eagle | Sunset Storm 壱 (Factory New)',
    slug: 'desert-eagle-sunset-storm-factory-new',
    category: 'skin',
  },
  {
    id: 'cs2_storm_2',
    game: 'cs2',
    marketHashName: 'Desert Eagle | Sunset Storm 弐 (Factory New)',
    slug: 'desert-eagle-sunset-storm-factory-new-abc123',
    category: 'skin',
  },
];
const rustItems: CatalogItem[] = [
  {
    id: 'rust_tempered',
    game: 'rust',
    marketHashName: 'Tempered AK47',
    slug: 'tempered-ak47',
    category: 'skin',
    weapon: 'Assault Rifle',
  },
];

const registries: SchemaRegistries = {
  rarities: [
    { key: 'classified', name: 'Classified', tier: 5, color: '#d32ce6' },
    { key: 'covert', name: 'Covert', tier: 6, color: '#eb4b4b' },
  ],
  collections: { set_community_2: { name: 'The Phoenix Collection' }, other: { name: 'Other' } },
  containers: {
    'operation-phoenix-weapon-case': { name: 'Operation Phoenix Weapon Case', kind: 'case' },
    unused: { name: 'Unused', kind: 'case' },
  },
};

let store: SchemaStore;
let service: SchemaService;
let harness: Harness;
const disabled = new Set<Game>();

before(async () => {
  store = createSqliteSchemaStore({ path: ':memory:', now: () => T0 });
  await store.init();
  harness = await buildHarness({
    catalogs: { cs2: testCatalog('cs2', cs2Items), rust: testCatalog('rust', rustItems) },
    gameReads: { disabled: (game) => disabled.has(game) },
  });
  service = new SchemaService({
    store,
    clock: harness.clock,
    sources: {
      cs2: { items: cs2Items, registries },
      rust: { items: rustItems, registries: { rarities: [], collections: {}, containers: {} } },
    },
  });
  await service.start();
  harness.deps.schema = service;
});
after(() => store.close());

const get = (url: string, headers: Record<string, string> = {}) =>
  harness.app.inject({ url, headers: { ...auth(KEYS.developer), ...headers } });

describe('200', () => {
  test('/v1/schema: the snapshot keyed by name, with the registries and an ETag', async () => {
    const response = await get('/v1/schema');
    assert.equal(response.statusCode, 200);
    assert.match(String(response.headers.etag), /^"[\w-]+"$/);
    const body = response.json();
    assert.equal(body.schemaVersion, T0);
    assert.equal(body.generatedAt, new Date(T0).toISOString());
    assert.equal(body.itemCount, 3);
    assert.deepEqual(
      Object.keys(body.items),
      cs2Items.map((entry) => entry.marketHashName),
    );
    assert.equal(body.items['AK-47 | Redline (Field-Tested)'].version, T0);
    assert.deepEqual(body.rarities, registries.rarities);
    assert.ok(response.headers['x-ratelimit-remaining']);
  });

  test('/v2/schema?game=rust: the rust snapshot, with Rust fields only', async () => {
    const body = (await get('/v2/schema?game=rust')).json();
    assert.deepEqual(body.items['Tempered AK47'], {
      id: 'rust_tempered',
      marketHashName: 'Tempered AK47',
      slug: 'tempered-ak47',
      category: 'skin',
      weapon: 'Assault Rifle',
      version: T0,
    });
  });

  test('gzip when asked: the same bytes compressed', async () => {
    const plain = await get('/v1/schema');
    const zipped = await get('/v1/schema', { 'accept-encoding': 'gzip' });
    assert.equal(zipped.headers['content-encoding'], 'gzip');
    assert.equal(gunzipSync(zipped.rawPayload).toString(), plain.body);
  });

  test('/schema/items by canonical id, URL-encoded name or unique slug, with only the referenced registries', async () => {
    for (const selector of [
      'cs2_redline_ft',
      encodeURIComponent('AK-47 | Redline (Field-Tested)'),
      'ak-47-redline-field-tested',
    ]) {
      const response = await get(`/v1/schema/items/${selector}`);
      assert.equal(response.statusCode, 200, selector);
      const body = response.json();
      assert.equal(body.schemaVersion, T0);
      assert.equal(body.item.id, 'cs2_redline_ft');
      assert.deepEqual(body.registries, {
        rarities: [registries.rarities[0]],
        collections: { set_community_2: { name: 'The Phoenix Collection' } },
        containers: {
          'operation-phoenix-weapon-case': { name: 'Operation Phoenix Weapon Case', kind: 'case' },
        },
      });
    }
    const rust = (await get('/v2/schema/items/tempered-ak47?game=rust')).json();
    assert.equal(rust.item.id, 'rust_tempered');
    assert.deepEqual(rust.registries, { rarities: [], collections: {}, containers: {} });
  });

  test('/schema/changes: since as ms and as ISO give the same page', async () => {
    const byMs = (await get('/v1/schema/changes?since=0')).json();
    const byIso = (await get('/v1/schema/changes?since=1970-01-01T00:00:00Z')).json();
    assert.deepEqual(byIso, byMs);
    assert.equal(byMs.schemaVersion, T0);
    assert.equal(byMs.since, 0);
    assert.equal(byMs.count, 3);
    assert.equal(byMs.hasMore, false);
    assert.equal(byMs.nextCursor, null);
    assert.deepEqual(
      byMs.registries.rarities.map((rarity: { key: string }) => rarity.key),
      ['classified'],
    );
    const none = (await get(`/v1/schema/changes?since=${T0}`)).json();
    assert.equal(none.count, 0);
  });

  test('/schema/changes pages with nextCursor until hasMore is false', async () => {
    const ids: string[] = [];
    let response = (await get('/v1/schema/changes?since=0&limit=1')).json();
    ids.push(...response.items.map((record: { id: string }) => record.id));
    while (response.hasMore) {
      response = (await get(`/v1/schema/changes?limit=1&cursor=${response.nextCursor}`)).json();
      ids.push(...response.items.map((record: { id: string }) => record.id));
    }
    assert.deepEqual(ids, ['cs2_redline_ft', 'cs2_storm_1', 'cs2_storm_2']);
  });
});

describe('304', () => {
  test('If-None-Match with the current ETag: 304 with no body', async () => {
    const etag = String((await get('/v1/schema')).headers.etag);
    const again = await get('/v1/schema', { 'if-none-match': etag });
    assert.equal(again.statusCode, 304);
    assert.equal(again.body, '');
    assert.equal((await get('/v1/schema', { 'if-none-match': '"other"' })).statusCode, 200);
  });
});

describe('400', () => {
  test('since missing or invalid', async () => {
    for (const query of ['', '?since=', '?since=yesterday', '?since=2026-13-01', '?since=-5']) {
      const response = await get(`/v1/schema/changes${query}`);
      assert.equal(response.statusCode, 400, query);
      assert.equal(response.json().code, 'INVALID_PARAMETER');
    }
  });

  test('limit outside 1 to 5000', async () => {
    for (const limit of ['0', '5001', 'ten']) {
      assert.equal((await get(`/v1/schema/changes?since=0&limit=${limit}`)).statusCode, 400, limit);
    }
    assert.equal((await get('/v1/schema/changes?since=0&limit=5000')).statusCode, 200);
  });

  test('a cs2 cursor on game=rust, or an edited cursor', async () => {
    const first = (await get('/v2/schema/changes?game=cs2&since=0&limit=1')).json();
    const other = await get(`/v2/schema/changes?game=rust&cursor=${first.nextCursor}`);
    assert.equal(other.statusCode, 400);
    assert.match(JSON.stringify(other.json().message), /another game/);
    const edited = `${first.nextCursor.slice(0, 5)}x${first.nextCursor.slice(6)}`;
    assert.equal((await get(`/v2/schema/changes?game=cs2&cursor=${edited}`)).statusCode, 400);
  });

  test('/v2 without a game', async () => {
    assert.equal((await get('/v2/schema')).statusCode, 400);
  });
});

describe('404 / 409', () => {
  test('an unknown item is 404', async () => {
    const response = await get('/v1/schema/items/no-such-item');
    assert.equal(response.statusCode, 404);
    assert.equal((await get('/v2/schema/items/cs2_redline_ft?game=rust')).statusCode, 404);
  });

  test('a slug shared by several items is 409 naming the candidates', async () => {
    const response = await get('/v1/schema/items/desert-eagle-sunset-storm-factory-new');
    assert.equal(response.statusCode, 409);
    assert.equal(response.json().code, 'AMBIGUOUS_ITEM');
    assert.match(response.json().message, /Sunset Storm 壱.*Sunset Storm 弐/);
  });

  test('every /v2 item route takes the same selectors: pricing by slug, 409 and 404', async () => {
    harness.quote('ask', 'cs2_redline_ft', 'skinport', [1600]);
    const bySlug = await get('/v2/pricing/ak-47-redline-field-tested?game=cs2');
    assert.equal(bySlug.statusCode, 200);
    assert.equal(
      bySlug.json().name ?? bySlug.json().marketHashName,
      'AK-47 | Redline (Field-Tested)',
    );
    const ambiguous = await get(
      '/v2/nbbo?game=cs2&market_hash_name=desert-eagle-sunset-storm-factory-new',
    );
    assert.equal(ambiguous.statusCode, 409);
    assert.equal((await get('/v2/pricing/nothing-like-it?game=cs2')).statusCode, 404);
  });
});

describe('503', () => {
  test('before the first build, with Retry-After', async () => {
    const fresh = new SchemaService({
      store,
      clock: harness.clock,
      sources: { cs2: { items: cs2Items, registries }, rust: { items: rustItems, registries } },
    });
    harness.deps.schema = fresh;
    try {
      for (const url of [
        '/v1/schema',
        '/v1/schema/items/cs2_redline_ft',
        '/v1/schema/changes?since=0',
      ]) {
        const response = await get(url);
        assert.equal(response.statusCode, 503, url);
        assert.ok(Number(response.headers['retry-after']) > 0);
      }
    } finally {
      harness.deps.schema = service;
    }
  });

  test('a disabled game: /v2 reads answer 503 after auth and plan checks; /v1 and the other game do not', async () => {
    disabled.add('rust');
    try {
      const refused = await get('/v2/schema?game=rust');
      assert.equal(refused.statusCode, 503);
      assert.ok(Number(refused.headers['retry-after']) > 0);
      assert.equal(refused.json().code, 'UNAVAILABLE');
      const noKey = await harness.app.inject({ url: '/v2/schema?game=rust' });
      assert.equal(noKey.statusCode, 401);
      const lowPlan = await get('/v2/pricing/Tempered%20AK47/history?game=rust');
      assert.equal(lowPlan.statusCode, 403);
      assert.equal((await get('/v2/schema?game=cs2')).statusCode, 200);
    } finally {
      disabled.delete('rust');
    }
    assert.equal((await get('/v2/schema?game=rust')).statusCode, 200);
  });
});
