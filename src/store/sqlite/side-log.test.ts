import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import type { SideSnapshot } from '../../domain/quote.ts';
import { T0, side, sortSides } from '../contract-fixtures.ts';
import { encodeLevels } from '../level-codec.ts';
import { migrate } from './migrate.ts';
import { SQLITE_MIGRATIONS } from './migrations.ts';
import { createSqlitePriceStore, type SqlitePriceStore } from './sqlite-price-store.ts';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sqlite-side-log-'));
after(() => fs.rmSync(root, { recursive: true, force: true }));

function freshFile(): string {
  return path.join(fs.mkdtempSync(path.join(root, 'db-')), 'prices.db');
}

/** The rules of live-writes.ts on a map: what the table layout's upsert did. */
class ReferenceSides {
  readonly held = new Map<string, SideSnapshot>();

  write(sides: readonly SideSnapshot[]): number {
    let changed = 0;
    for (const next of sides) {
      const key = `${next.game}/${next.market}/${next.itemId}/${next.side}`;
      const stored = this.held.get(key);
      if (stored !== undefined && !replaces(next, stored)) continue;
      this.held.set(key, next);
      changed++;
    }
    return changed;
  }

  of(game: string): SideSnapshot[] {
    return sortSides([...this.held.values()].filter((held) => held.game === game));
  }
}

function content(snapshot: SideSnapshot): string {
  const { levels, listingCount, totalQuantity, sourceTimeKind, originalCurrency } = snapshot;
  return JSON.stringify([levels, listingCount, totalQuantity, sourceTimeKind, originalCurrency]);
}

function replaces(next: SideSnapshot, stored: SideSnapshot): boolean {
  const differs = content(next) !== content(stored);
  if (next.fetchedAt > stored.fetchedAt) return differs;
  if (next.fetchedAt < stored.fetchedAt) return false;
  return differs || next.sourceUpdatedAt !== stored.sourceUpdatedAt;
}

const sideArbitrary = fc.record({
  game: fc.constantFrom('cs2' as const, 'rust' as const),
  itemId: fc.constantFrom('a', 'b', 'c'),
  market: fc.constantFrom('skinport' as const, 'csfloat' as const),
  side: fc.constantFrom('ask' as const, 'bid' as const),
  price: fc.constantFrom(100, 101),
  listingCount: fc.constantFrom(null, 3),
  fetchedAt: fc.integer({ min: 0, max: 4 }).map((step) => T0 + step * 1000),
  sourceUpdatedAt: fc.constantFrom(null, T0 - 5),
  sourceTimeKind: fc.constantFrom(null, 'item_updated'),
});

const step = fc.oneof(
  { weight: 6, arbitrary: fc.array(sideArbitrary, { minLength: 1, maxLength: 6 }) },
  { weight: 1, arbitrary: fc.constant('snapshot' as const) },
  { weight: 1, arbitrary: fc.constant('reopen' as const) },
);

async function open(file: string): Promise<SqlitePriceStore> {
  const store = createSqlitePriceStore({ path: file, sideSnapshots: { minBytes: 0 } });
  await store.init();
  return store;
}

function generationOf(store: SqlitePriceStore): number {
  return (store.db.prepare('SELECT generation FROM side_state').get() as { generation: number })
    .generation;
}

function partGenerations(store: SqlitePriceStore): number[] {
  const rows = store.db.prepare('SELECT DISTINCT generation FROM side_parts').all();
  return (rows as Array<{ generation: number }>).map((row) => row.generation);
}

describe('sqlite latest sides: change log and snapshots', () => {
  test('every batch count and every read equal the upsert rules, across snapshots and reopens', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 12 }), async (steps) => {
        const file = freshFile();
        const reference = new ReferenceSides();
        let store = await open(file);
        try {
          for (const action of steps) {
            if (action === 'snapshot') store.snapshotSides();
            else if (action === 'reopen') {
              await store.close();
              store = await open(file);
            } else {
              const sides = action.map(({ price, ...rest }) =>
                side({ ...rest, levels: [{ price, quantity: 1, orders: null }] }),
              );
              const counts = await store.writeBatch({ sides, sales: [], listings: [] });
              assert.equal(counts.sides, reference.write(sides));
            }
            for (const game of ['cs2', 'rust'] as const) {
              assert.deepEqual(sortSides(await store.loadSides(game)), reference.of(game));
            }
          }
        } finally {
          await store.close();
          fs.rmSync(path.dirname(file), { recursive: true, force: true });
        }
      }),
      { numRuns: 25 },
    );
  });

  test('a snapshot replaces the log: the log it folded and the old parts are deleted', async () => {
    const file = freshFile();
    const store = await open(file);
    const sides = ['a', 'b', 'c'].map((itemId) => side({ itemId }));
    await store.writeBatch({ sides, sales: [], listings: [] });
    await store.writeBatch({
      sides: [side({ itemId: 'a', fetchedAt: T0 + 1, totalQuantity: 9 })],
      sales: [],
      listings: [],
    });
    store.snapshotSides();
    const count = (table: string) =>
      (store.db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    assert.equal(count('side_log'), 0);
    assert.equal(count('side_parts'), 1);
    assert.equal((await store.loadSides('cs2')).length, 3);
    await store.close();
  });

  test("a second writer on the same file: each store sees the other's sides before it decides", async () => {
    const file = freshFile();
    const first = await open(file);
    const second = await open(file);
    const batch = (fetchedAt: number, totalQuantity: number) => ({
      sides: [side({ fetchedAt, totalQuantity })],
      sales: [],
      listings: [],
    });
    assert.equal((await first.writeBatch(batch(T0, 1))).sides, 1);
    assert.equal((await second.writeBatch(batch(T0 + 2, 2))).sides, 1);
    assert.equal((await first.writeBatch(batch(T0 + 1, 3))).sides, 0, 'older than the stored one');
    assert.equal((await first.writeBatch(batch(T0 + 3, 2))).sides, 0, 'unchanged');
    assert.deepEqual(await first.loadSides('cs2'), [side({ fetchedAt: T0 + 2, totalQuantity: 2 })]);
    await first.close();
    await second.close();
  });

  test('a close mid-snapshot finishes it and snapshots the log after it: a reopen reads no log', async () => {
    const file = freshFile();
    const steps: string[] = [];
    let store = createSqlitePriceStore({
      path: file,
      sideSnapshots: { minBytes: 0, onStep: (name) => steps.push(name) },
    });
    await store.init();
    const many = Array.from({ length: 5000 }, (_, index) => side({ itemId: `item-${index}` }));
    await store.writeBatch({ sides: many, sales: [], listings: [] });
    await new Promise(setImmediate);
    assert.ok(steps.length > 0 && !steps.includes('switch'), 'stopped before the switch');
    const later = [side({ itemId: 'item-7', fetchedAt: T0 + 1, totalQuantity: 9 })];
    await store.writeBatch({ sides: later, sales: [], listings: [] });
    const before = generationOf(store);
    await store.close();
    store = await open(file);
    const logLeft = store.db.prepare('SELECT count(*) AS n FROM side_log').get() as { n: number };
    assert.equal(logLeft.n, 0, 'the whole log went into parts');
    assert.equal(generationOf(store), before + 2, 'the running snapshot, then one of the rest');
    assert.deepEqual(partGenerations(store), [before + 2]);
    const expected = many.map((held) => (held.itemId === 'item-7' ? later[0]! : held));
    assert.deepEqual(sortSides(await store.loadSides('cs2')), sortSides(expected));
    await store.close();
  });

  test('a store that only read leaves the log to the writer at close', async () => {
    const file = freshFile();
    const writer = await open(file);
    await writer.writeBatch({ sides: [side({ itemId: 'a' })], sales: [], listings: [] });
    const reader = await open(file);
    assert.equal((await reader.loadSides('cs2')).length, 1);
    await reader.close();
    const logRows = () =>
      (writer.db.prepare('SELECT count(*) AS n FROM side_log').get() as { n: number }).n;
    assert.equal(logRows(), 1);
    await writer.close();
  });
});

describe('sqlite latest sides: the table layout of earlier releases', () => {
  const legacySides = [
    side(),
    side({ side: 'bid', sourceUpdatedAt: null, sourceTimeKind: null, listingCount: null }),
    side({ market: 'csfloat', originalCurrency: 'USD' }),
    side({ game: 'rust', itemId: 'ak-47-redline-field-tested', levels: [] }),
  ];

  function insertLegacyRows(db: Database.Database): void {
    const insert = db.prepare(`INSERT INTO side_snapshots (game, item_id, market, side, levels,
      listing_count, total_quantity, fetched_at, ingested_at, source_updated_at, source_time_kind,
      original_currency) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    for (const held of legacySides) {
      insert.run(
        held.game,
        held.itemId,
        held.market,
        held.side,
        encodeLevels(held.levels),
        held.listingCount,
        held.totalQuantity,
        held.fetchedAt,
        held.ingestedAt,
        held.sourceUpdatedAt,
        held.sourceTimeKind,
        held.originalCurrency,
      );
    }
  }

  function legacyFile(): string {
    const file = freshFile();
    const legacy = new Database(file);
    migrate(legacy, SQLITE_MIGRATIONS.slice(0, 8), () => T0);
    insertLegacyRows(legacy);
    legacy.close();
    return file;
  }

  const hasTable = (store: SqlitePriceStore) =>
    store.db.prepare(`SELECT 1 FROM sqlite_master WHERE name = 'side_snapshots'`).get() !==
    undefined;

  test('opens: its rows become the first snapshot and the table is dropped', async () => {
    const store = await open(legacyFile());
    assert.equal(hasTable(store), false);
    assert.deepEqual(
      sortSides(await store.loadSides('cs2')),
      sortSides(legacySides.filter((held) => held.game === 'cs2')),
    );
    assert.equal((await store.loadSides('rust')).length, 1);
    assert.equal(await store.isEmpty(), false);
    const unchanged = await store.writeBatch({
      sides: [side({ fetchedAt: T0 + 9 })],
      sales: [],
      listings: [],
    });
    assert.equal(unchanged.sides, 0, 'the converted sides are known to the writer');
    await store.close();
  });

  test('a crash between the copy and the drop converts again, from the table', async () => {
    const file = legacyFile();
    const store = await open(file);
    const converted = generationOf(store);
    await store.close();
    const crashed = new Database(file);
    crashed.exec(SIDE_TABLE_OF_VERSION_1);
    insertLegacyRows(crashed);
    crashed.close();
    const again = await open(file);
    assert.equal(hasTable(again), false);
    assert.deepEqual(partGenerations(again), [converted + 1], 'converted again, once');
    assert.deepEqual(
      sortSides(await again.loadSides('cs2')),
      sortSides(legacySides.filter((held) => held.game === 'cs2')),
    );
    await again.close();
  });
});

const SIDE_TABLE_OF_VERSION_1 = `
CREATE TABLE side_snapshots (
  game TEXT NOT NULL,
  item_id TEXT NOT NULL,
  market TEXT NOT NULL,
  side TEXT NOT NULL CHECK (side IN ('ask', 'bid')),
  levels BLOB NOT NULL,
  listing_count INTEGER,
  total_quantity INTEGER NOT NULL,
  fetched_at INTEGER NOT NULL,
  ingested_at INTEGER NOT NULL,
  source_updated_at INTEGER,
  source_time_kind TEXT,
  original_currency TEXT NOT NULL,
  PRIMARY KEY (game, market, item_id, side)
) STRICT, WITHOUT ROWID;`;
