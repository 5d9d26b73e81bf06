/**
 * One contract for every SchemaStore (SQLite and PostgreSQL), driven through the real
 * SchemaService: versions persist and survive a restart, move only for changed items, never move
 * backwards, removals stay resolvable, learned items keep their place, two services on one store
 * agree, the cursor secret is stable, and the game switch round-trips.
 */
import { describe, test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import assert from 'node:assert/strict';
import { manualClock, type ManualClock } from '../domain/clock.ts';
import type { CatalogItem } from '../domain/item.ts';
import { EMPTY_REGISTRIES } from './registries.ts';
import type { SchemaRecord } from './records.ts';
import { SchemaService } from './schema-service.ts';
import type { SchemaStore } from './schema-store.ts';

export type OpenSchemaStore = () => Promise<{ open(): SchemaStore; cleanup(): Promise<void> }>;

const T0 = Date.parse('2026-11-01T12:00:00Z');

function item(id: string, image = 'a.png'): CatalogItem {
  return {
    id: `cs2_${id}`,
    game: 'cs2',
    marketHashName: `Item ${id}`,
    slug: `item-${id}`,
    category: 'skin',
    image,
  };
}

function service(
  store: SchemaStore,
  clock: ManualClock,
  cs2: CatalogItem[],
  learned?: SchemaRecord[][],
) {
  return new SchemaService({
    store,
    clock,
    sources: {
      cs2: { items: cs2, registries: EMPTY_REGISTRIES },
      rust: { items: [], registries: EMPTY_REGISTRIES },
    },
    ...(learned ? { onLearned: (_game, records) => void learned.push([...records]) } : {}),
  });
}

export function schemaStoreContract(name: string, setup: OpenSchemaStore): void {
  describe(`${name} schema store`, () => {
    async function withStores(work: (open: () => Promise<SchemaStore>) => Promise<void>) {
      const { open, cleanup } = await setup();
      const opened: SchemaStore[] = [];
      try {
        await work(async () => {
          const store = open();
          opened.push(store);
          await store.init();
          return store;
        });
      } finally {
        for (const store of opened) await store.close();
        await cleanup();
      }
    }

    test('versions persist across a restart and move only for changed items', async () => {
      await withStores(async (open) => {
        const clock = manualClock(T0);
        const first = service(await open(), clock, [item('a'), item('b'), item('c')]);
        await first.start();
        assert.equal(first.log('cs2').head(), T0);
        const etag = first.snapshot('cs2')!.etag;

        clock.advance(60_000);
        const again = service(await open(), clock, [item('a'), item('b'), item('c')]);
        await again.start();
        assert.equal(again.log('cs2').head(), T0, 'nothing changed: no new version');
        assert.equal(again.snapshot('cs2')!.etag, etag, 'same content, same ETag');

        clock.advance(60_000);
        const upgraded = service(await open(), clock, [
          item('a'),
          item('b', 'renamed.png'),
          item('c'),
        ]);
        await upgraded.start();
        const log = upgraded.log('cs2');
        assert.equal(log.get('cs2_b')!.version, T0 + 120_000);
        assert.equal(log.get('cs2_a')!.version, T0);
        assert.equal(log.get('cs2_c')!.version, T0);
        assert.notEqual(upgraded.snapshot('cs2')!.etag, etag);
      });
    });

    test('versions never move backwards when the clock does; removals stay resolvable', async () => {
      await withStores(async (open) => {
        const clock = manualClock(T0);
        await service(await open(), clock, [item('a'), item('b')]).start();
        clock.set(T0 - 3_600_000);
        const later = service(await open(), clock, [item('a')]);
        await later.start();
        const removal = later.log('cs2').get('cs2_b')!;
        assert.equal(removal.removed, true);
        assert.equal(removal.version, T0 + 1);
        assert.equal(removal.record.marketHashName, 'Item b');
        const body = JSON.parse(gunzipSync(later.snapshot('cs2')!.gzip).toString());
        assert.equal(body.itemCount, 1);
        assert.equal(body.schemaVersion, T0 + 1);
      });
    });

    test('learned items get their own version, survive package syncs and reach other processes', async () => {
      await withStores(async (open) => {
        const clock = manualClock(T0);
        const heard: SchemaRecord[][] = [];
        const serving = service(await open(), clock, [item('a')], heard);
        await serving.start();
        clock.advance(5_000);
        const ingesting = service(await open(), clock, [item('a')]);
        await ingesting.loadLogs();
        assert.equal(await ingesting.learn('cs2', 'Brand New Case', 'steamcommunity'), true);
        assert.equal(await ingesting.learn('cs2', 'Brand New Case', 'steamcommunity'), false);
        assert.equal(await ingesting.learn('cs2', 'Item a', 'steamcommunity'), false);

        await serving.refresh();
        const learned = [...serving.log('cs2').latest().values()].find(
          (entry) => entry.source === 'learned',
        )!;
        assert.equal(learned.version, T0 + 5_000);
        assert.deepEqual(learned.record, {
          id: learned.id,
          marketHashName: 'Brand New Case',
          slug: 'brand-new-case',
          category: 'other',
          learned: true,
          learnedFrom: 'steamcommunity',
        });
        assert.deepEqual(
          heard.flat().map((record) => record.marketHashName),
          ['Brand New Case'],
        );
        const body = JSON.parse(gunzipSync(serving.snapshot('cs2')!.gzip).toString());
        assert.equal(body.items['Brand New Case'].version, T0 + 5_000);

        clock.advance(5_000);
        const restarted = service(await open(), clock, [item('a')]);
        await restarted.start();
        assert.equal(restarted.log('cs2').get(learned.id)!.removed, false);
      });
    });

    test('the cursor secret is created once; the game switch round-trips', async () => {
      await withStores(async (open) => {
        const one = await open();
        const two = await open();
        assert.deepEqual(await one.cursorSecret(), await two.cursorSecret());
        assert.equal((await one.cursorSecret()).length, 32);
        assert.deepEqual(await one.disabledGames(), []);
        await one.setGameReads('rust', false, T0);
        assert.deepEqual(await two.disabledGames(), ['rust']);
        await two.setGameReads('rust', true, T0 + 1);
        assert.deepEqual(await one.disabledGames(), []);
      });
    });
  });
}
