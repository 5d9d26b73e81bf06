import { test } from 'node:test';
import assert from 'node:assert/strict';
import { canonicalId } from '../catalog/canonical-id.ts';
import { createCatalog } from '../catalog/create-catalog.ts';
import { manualClock } from '../domain/clock.ts';
import type { CatalogItem } from '../domain/item.ts';
import { recordHash, schemaRecord } from './records.ts';
import { EMPTY_REGISTRIES } from './registries.ts';
import { SchemaService } from './schema-service.ts';
import type { SchemaStore } from './schema-store.ts';
import { createSqliteSchemaStore } from './sqlite-schema-store.ts';

const T0 = Date.parse('2026-11-01T00:00:00Z');

function item(index: number, slugSuffix = ''): CatalogItem {
  const name = `Sticker | Test ${index}`;
  return {
    id: canonicalId('cs2', name),
    game: 'cs2',
    marketHashName: name,
    slug: `sticker-test-${index}${slugSuffix}`,
    category: 'sticker',
  };
}

const RUST_ITEM: CatalogItem = {
  id: canonicalId('rust', 'Tempered AK47'),
  game: 'rust',
  marketHashName: 'Tempered AK47',
  slug: 'tempered-ak47',
  category: 'skin',
};

function serviceOn(store: SchemaStore, items: CatalogItem[], now: number) {
  const cs2 = createCatalog('cs2', items, []);
  const rust = createCatalog('rust', [RUST_ITEM], []);
  return new SchemaService({
    store,
    clock: manualClock(now),
    sources: {
      cs2: { items: cs2.items, registries: EMPTY_REGISTRIES },
      rust: { items: rust.items, registries: EMPTY_REGISTRIES },
    },
  });
}

async function openStore(): Promise<SchemaStore> {
  const store = createSqliteSchemaStore({ path: ':memory:', now: () => T0 });
  await store.init();
  return store;
}

test('loading the logs tells a first start (a log is empty) from a restart', async () => {
  const store = await openStore();
  const first = serviceOn(store, [item(1), item(2)], T0);
  assert.equal(await first.loadLogs(), true);
  await first.syncSources();
  assert.equal(first.log('cs2').latest().size, 2);
  const restart = serviceOn(store, [item(1), item(2)], T0 + 60_000);
  assert.equal(await restart.loadLogs(), false);
  await store.close();
});

test('a restart writes only what changed, 2,000 items a version, ending where one sync would', async () => {
  const store = await openStore();
  const before = Array.from({ length: 4500 }, (_, index) => item(index));
  const first = serviceOn(store, before, T0);
  await first.syncSources();
  const firstHead = first.log('cs2').head();
  // 3,000 changed (two parts of 2,000 hold some), 100 gone, 50 new
  const after = [
    ...before.slice(0, 3000).map((_, index) => item(index, '-v2')),
    ...before.slice(3000, 4400),
    ...Array.from({ length: 50 }, (_, index) => item(10_000 + index)),
  ];
  const restart = serviceOn(store, after, T0 + 60_000);
  await restart.syncSources();
  const log = restart.log('cs2');
  const appended = await store.entriesAfter('cs2', firstHead);
  assert.equal(appended.length, 3000 + 100 + 50);
  const perVersion = new Map<number, number>();
  for (const { version } of appended) perVersion.set(version, (perVersion.get(version) ?? 0) + 1);
  assert.ok(
    perVersion.size >= 3,
    `${perVersion.size} versions: the parts that changed, the removals`,
  );
  assert.ok(Math.max(...perVersion.values()) <= 2000);
  for (const wanted of after) {
    const entry = log.latest().get(wanted.id);
    assert.equal(entry?.hash, recordHash(schemaRecord(wanted)));
    assert.equal(entry?.removed, false);
  }
  for (const gone of before.slice(4400)) assert.equal(log.latest().get(gone.id)?.removed, true);
  await store.close();
});
