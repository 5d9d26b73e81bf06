import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Book } from '../book/book.ts';
import { createCatalog } from '../catalog/create-catalog.ts';
import { canonicalId } from '../catalog/canonical-id.ts';
import { manualClock } from '../domain/clock.ts';
import type { Game } from '../domain/games.ts';
import type { CatalogItem } from '../domain/item.ts';
import { FetchLog } from '../ingest/fetch-log.ts';
import { createIngestRunner } from '../ingest/runner.ts';
import {
  askObservation,
  capturingLogger,
  manualTimers,
  marketInfo,
  recordingStore,
  scriptedAdapter,
  TEST_FX,
} from '../ingest/test-fixtures.ts';
import type { MarketId } from '../domain/markets.ts';
import { growingCatalog } from './growing-catalog.ts';
import { CatalogLearner, NAMING_AUTHORITY } from './learner.ts';
import { EMPTY_REGISTRIES } from './registries.ts';
import { SchemaService } from './schema-service.ts';
import { createSqliteSchemaStore } from './sqlite-schema-store.ts';

const T0 = Date.parse('2026-11-01T00:00:00Z');

function packageItem(game: Game, name: string): CatalogItem {
  return {
    id: canonicalId(game, name),
    game,
    marketHashName: name,
    slug: name.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
    category: 'skin',
  };
}

async function setup() {
  const clock = manualClock(T0);
  const store = createSqliteSchemaStore({ path: ':memory:', now: () => clock.now() });
  await store.init();
  const cs2 = createCatalog('cs2', [packageItem('cs2', 'AK-47 | Redline (Field-Tested)')], []);
  const rust = createCatalog('rust', [packageItem('rust', 'Tempered AK47')], []);
  const catalogs = { cs2: growingCatalog(cs2), rust: growingCatalog(rust) };
  const service = new SchemaService({
    store,
    clock,
    sources: {
      cs2: { items: cs2.items, registries: EMPTY_REGISTRIES },
      rust: { items: rust.items, registries: EMPTY_REGISTRIES },
    },
    onLearned: (game, records) => void catalogs[game].learn(records),
  });
  await service.start();
  return { clock, store, catalogs, service, learner: new CatalogLearner(service) };
}

function observed(market: MarketId, game: Game, item: string) {
  return askObservation({ market, game, item, fetchedAt: T0 });
}

describe('learning from the naming authority', () => {
  test('a steamcommunity name the catalog lacks becomes a versioned, priceable item', async () => {
    const { clock, store, catalogs, service, learner } = await setup();
    clock.advance(60_000);
    const steam = marketInfo({ id: NAMING_AUTHORITY, games: ['cs2', 'rust'] });
    const other = marketInfo({ id: 'skinport', games: ['cs2', 'rust'] });
    const fresh = 'Big Fresh Hoodie';
    const steps = [
      {
        observations: [
          observed('steamcommunity', 'rust', fresh),
          observed('steamcommunity', 'rust', 'Tempered AK47'),
        ],
      },
      { observations: [observed('steamcommunity', 'rust', fresh)] },
    ];
    const book = new Book();
    const pending: Promise<void>[] = [];
    const runner = createIngestRunner({
      adapters: [
        scriptedAdapter(steam, steps),
        scriptedAdapter(other, [
          { observations: [observed('skinport', 'rust', 'Only On Skinport')] },
        ]),
      ],
      catalogs,
      fx: TEST_FX,
      book,
      store: recordingStore(),
      fetchLog: new FetchLog(clock),
      clock,
      logger: capturingLogger(),
      timers: manualTimers(),
      onUnmapped: (market, game, names) => void pending.push(learner.notice(market, game, names)),
    });
    const first = await runner.runOnce('steamcommunity', 'rust');
    assert.ok('record' in first && first.record.unmappedCount === 1);
    await Promise.all(pending);

    const id = canonicalId('rust', fresh);
    const entry = service.log('rust').get(id)!;
    assert.equal(entry.version, T0 + 60_000);
    assert.equal(entry.source, 'learned');
    const changes = service
      .log('rust')
      .page({ since: T0, upper: service.log('rust').head(), after: null, limit: 10 });
    assert.deepEqual(
      changes.entries.map((change) => change.record.marketHashName),
      [fresh],
    );
    assert.equal(catalogs.rust.resolve(fresh)?.id, id);

    const second = await runner.runOnce('steamcommunity', 'rust');
    assert.ok('record' in second && second.record.unmappedCount === 0);
    assert.equal(book.sides('rust', id).length, 1, 'priced from the next poll on');

    await runner.runOnce('skinport', 'rust');
    await Promise.all(pending);
    assert.equal(
      catalogs.rust.resolve('Only On Skinport'),
      undefined,
      'other markets are never learned',
    );
    assert.equal(learner.unmappedNames('rust').get('Only On Skinport'), 1);
    await store.close();
  });

  test('a name is asked once; a failed attempt is retried', async () => {
    let calls = 0;
    let fail = true;
    const learner = new CatalogLearner(
      {
        async learn() {
          calls += 1;
          if (fail) throw new Error('store down');
          return true;
        },
      },
      () => {},
    );
    await learner.notice('steamcommunity', 'cs2', ['New Case', 'New Case']);
    assert.equal(calls, 1);
    fail = false;
    await learner.notice('steamcommunity', 'cs2', ['New Case']);
    await learner.notice('steamcommunity', 'cs2', ['New&#39;s Case', 'New Case']);
    assert.equal(calls, 3);
  });
});
