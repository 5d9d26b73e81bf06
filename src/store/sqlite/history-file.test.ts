import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { decodeChunk } from './rollup-chunks.ts';
import { DAY, HOUR, MINUTE } from '../../domain/clock.ts';
import { TIERS } from '../../pricing/rollup-buckets.ts';
import { T0 } from '../contract-fixtures.ts';
import { compactHistory } from '../history-compaction.ts';
import { historyStoreContract } from '../history-contract.ts';
import { ask, bid, sale, SERIES } from '../history-contract-support.ts';
import { historyPathOf } from './history-file.ts';
import { migrate } from './migrate.ts';
import { SQLITE_MIGRATIONS } from './migrations.ts';
import { createSqlitePriceStore } from './sqlite-price-store.ts';
import { unfoldedBytes } from './test-support.ts';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sqlite-history-file-'));
after(() => fs.rmSync(root, { recursive: true, force: true }));

function freshFile(): string {
  return path.join(fs.mkdtempSync(path.join(root, 'db-')), 'prices.db');
}

/** Moves a tier's loose rows (a table per period) into `into`, one table as layouts before. */
function intoOneTable(old: Database.Database, tier: string, into: string, extra = ''): void {
  const tables = old
    .prepare<[], string>(`SELECT name FROM sqlite_master WHERE name GLOB 'rollups_${tier}_*'`)
    .pluck()
    .all();
  const insert = old.prepare(`INSERT INTO ${into} VALUES (?, ?, ?, ?, ?${extra})`);
  type Row = [number, number, Buffer | null, Buffer | null, Buffer | null];
  for (const name of tables) {
    for (const [bucket, series, ask, bid, sales] of old
      .prepare<[], Row>(`SELECT bucket, series, ask, bid, sales FROM ${name}`)
      .raw()
      .all()) {
      if (series >= 0) insert.run(series, bucket, ask, bid, sales);
      else for (const [id, entry] of decodeChunk(series, ask!)) insert.run(id, bucket, ...entry);
    }
    old.exec(`DROP TABLE ${name}`);
  }
}

historyStoreContract(
  'sqlite file',
  async () => {
    const file = freshFile();
    return {
      store: createSqlitePriceStore({ path: file }),
      cleanup: async () => fs.rmSync(path.dirname(file), { recursive: true, force: true }),
    };
  },
  { pages: true, derivedHours: true },
);

const fetchAt = (at: number) => ({
  sides: [ask('skinport', 1234 + at / MINUTE, at), bid('csfloat', 1100, at)],
  sales: [sale('csfloat', 1150, 2, at)],
  listings: [],
});
const batch = {
  sides: [ask('skinport', 1234, MINUTE), bid('csfloat', 1100, MINUTE)],
  sales: [sale('csfloat', 1150, 2, MINUTE)],
  listings: [],
};

describe('sqlite history file', () => {
  test('lives beside the prices file', () => {
    assert.equal(historyPathOf('/data/prices.db'), '/data/prices.history.db');
    assert.equal(historyPathOf('/data/prices'), '/data/prices.history.db');
    assert.equal(historyPathOf(':memory:'), ':memory:');
  });

  test('rollups a store kept in its prices file move to the history file', async () => {
    const file = freshFile();
    const legacy = new Database(file);
    migrate(legacy, SQLITE_MIGRATIONS.slice(0, 3), () => T0);
    legacy.exec(`INSERT INTO rollups_1h (series, bucket, sales) VALUES (7, 11, x'03')`);
    legacy.close();
    const store = createSqlitePriceStore({ path: file });
    await store.init();
    const moved = store.db.prepare(`SELECT series, bucket, hex(sales) FROM history.rollups_1h_0`);
    assert.deepEqual(moved.raw().all(), [[7, 11, '03']]);
    const left = store.db
      .prepare("SELECT count(*) FROM main.sqlite_master WHERE name LIKE 'rollups_%'")
      .pluck()
      .get();
    assert.equal(left, 0);
    await store.close();
  });

  test('a history file of the run layout is converted and reads the same history back', async () => {
    const file = freshFile();
    const first = createSqlitePriceStore({ path: file });
    await first.init();
    for (let bucket = 0; bucket < 6; bucket += 1) {
      const at = bucket * 10 * MINUTE + MINUTE;
      await first.writeBatch({
        sides: [ask('skinport', bucket < 4 ? 1234 : 1250, at)],
        sales: bucket === 5 ? [sale('csfloat', 1150, 2, at)] : [],
        listings: [],
      });
    }
    const read = (store: typeof first) =>
      Promise.all(
        [SERIES.aggregate, SERIES.skinport, SERIES.csfloat].flatMap((series) =>
          TIERS.flatMap((tier) => [
            store.readRollups(series, tier, 0, T0 + DAY),
            store.readSaleCounts(series, tier, 0, T0 + DAY),
          ]),
        ),
      );
    const expected = await read(first);
    await first.close();
    const old = new Database(historyPathOf(file));
    for (const tier of TIERS) {
      old.exec(`DROP TABLE pages_${tier};
        CREATE TABLE rollups_${tier} (series INTEGER NOT NULL, bucket INTEGER NOT NULL,
          ask BLOB, bid BLOB, sales BLOB, sale_units INTEGER,
          run INTEGER NOT NULL DEFAULT 1 CHECK (run >= 1),
          PRIMARY KEY (series, bucket)) STRICT, WITHOUT ROWID;`);
      intoOneTable(old, tier, `rollups_${tier}`, ', NULL, 1');
    }
    const first10m = Math.floor(T0 / (10 * MINUTE));
    const equal = old
      .prepare('SELECT count(DISTINCT ask) FROM rollups_10m WHERE bucket < ?')
      .pluck()
      .get(first10m + 4);
    assert.equal(equal, 2, 'per series, the first four buckets hold the same');
    old
      .prepare('DELETE FROM rollups_10m WHERE bucket > ? AND bucket < ?')
      .run(first10m, first10m + 4);
    old.prepare('UPDATE rollups_10m SET run = 4 WHERE bucket = ?').run(first10m);
    for (const tier of TIERS) {
      old.exec(`ALTER TABLE fold_mark ADD COLUMN settled_${tier} INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE fold_mark ADD COLUMN late_${tier} INTEGER NOT NULL DEFAULT ${Number.MAX_SAFE_INTEGER}`);
    }
    old.close();
    const store = createSqlitePriceStore({ path: file });
    await store.init();
    assert.deepEqual(await read(store), expected);
    const columns = store.db.prepare('SELECT name FROM pragma_table_info(?, ?)').pluck();
    assert.deepEqual(columns.all('rollups_10m', 'history'), [], 'moved to a table per period');
    assert.ok(!columns.all('fold_mark', 'history').includes('settled_1h'));
    const { packed } = await compactHistory(store, T0 + 8 * DAY, {});
    assert.deepEqual(packed, { '10m': 6 + 6 + 1, '1h': 0, '1d': 0 }, 'hours are derived');
    assert.deepEqual(await read(store), expected);
    await store.close();
  });

  for (const key of ['series, bucket', 'bucket, series']) {
    test(`rows in one table keyed (${key}) move to a table per period on open, also after a crash mid-way`, async () => {
      const file = freshFile();
      const first = createSqlitePriceStore({ path: file });
      await first.init();
      for (const at of [MINUTE, 11 * MINUTE, DAY + MINUTE, DAY + 21 * MINUTE]) {
        await first.writeBatch(fetchAt(at));
        if (at === 11 * MINUTE) await compactHistory(first, T0 + DAY + HOUR, {});
      }
      const read = (store: typeof first) =>
        Promise.all(TIERS.map((tier) => store.readRollups(SERIES.aggregate, tier, 0, T0 + DAY)));
      const expected = await read(first);
      await first.close();
      const old = new Database(historyPathOf(file));
      for (const tier of TIERS) {
        old.exec(`CREATE TABLE rollups_${tier} (series INTEGER NOT NULL, bucket INTEGER NOT NULL,
            ask BLOB, bid BLOB, sales BLOB, sale_units INTEGER,
            PRIMARY KEY (${key})) STRICT, WITHOUT ROWID;
          ALTER TABLE pages_${tier} RENAME TO old_pages; CREATE TABLE pages_${tier} (series INTEGER
            NOT NULL, period INTEGER NOT NULL, data BLOB NOT NULL, UNIQUE (series, period)) STRICT;
          INSERT INTO pages_${tier} SELECT series, period, data FROM old_pages; DROP TABLE old_pages;`);
        intoOneTable(old, tier, `rollups_${tier}`, ', NULL');
        if (tier === '10m')
          old.exec(`CREATE TABLE time_first_rollups_10m AS SELECT * FROM rollups_10m`);
      }
      old.close();
      const store = createSqlitePriceStore({ path: file });
      await store.init();
      assert.deepEqual(await read(store), expected);
      const keys = store.db.prepare(
        "SELECT name FROM pragma_table_info(?, 'history') WHERE pk = 1",
      );
      const day = Math.floor(T0 / DAY);
      assert.equal(keys.pluck().get(`rollups_10m_${day + 1}`), 'bucket');
      assert.equal(keys.pluck().get(`rollups_1d_${Math.floor(day / 64)}`), 'bucket');
      assert.equal(keys.pluck().get('rollups_10m'), undefined);
      const pages = store.db.prepare("SELECT name FROM pragma_table_info('pages_10m', 'history')");
      assert.equal(pages.pluck().get(), 'period');
      assert.equal(store.db.prepare('SELECT count(*) FROM history.pages_10m').pluck().get(), 3);
      const tables = store.db.prepare(
        "SELECT name FROM history.sqlite_master WHERE name LIKE 'time%'",
      );
      assert.deepEqual(tables.all(), [], 'the copy left by a crash was taken over');
      await store.close();
    });
  }

  test('a history file in WAL mode, as a kill -9 of an earlier release left it, opens with a rollback journal', async () => {
    const file = freshFile();
    const old = createSqlitePriceStore({ path: file });
    await old.init();
    old.db.pragma('history.journal_mode = WAL');
    await old.writeBatch(batch);
    await old.flushRollups();
    old.db.exec(`INSERT INTO history.expired (tier, bucket) VALUES ('1d', 5)`);
    const rows = await old.readRollups(SERIES.aggregate, '10m', 0, T0 + DAY);
    assert.equal(rows.length, 1);
    const copy = freshFile();
    for (const name of ['prices.db', 'prices.history.db'].flatMap((db) => [db, `${db}-wal`])) {
      fs.copyFileSync(path.join(path.dirname(file), name), path.join(path.dirname(copy), name));
    }
    await old.close();
    const store = createSqlitePriceStore({ path: copy });
    await store.init();
    assert.equal(store.db.pragma('history.journal_mode', { simple: true }), 'truncate');
    assert.equal(fs.existsSync(`${historyPathOf(copy)}-wal`), false, 'its WAL was checkpointed');
    const expired = store.db.prepare(`SELECT bucket FROM history.expired WHERE tier = '1d'`);
    assert.equal(expired.pluck().get(), 5, 'a commit only in the WAL is kept');
    assert.deepEqual(await store.readRollups(SERIES.aggregate, '10m', 0, T0 + DAY), rows);
    await store.close();
  });

  test('a history file of the release before deferred marks opens with them and folds once', async () => {
    const file = freshFile();
    const old = createSqlitePriceStore({ path: file });
    await old.init();
    await old.writeBatch(batch);
    await old.flushRollups();
    await old.writeBatch({ sides: [ask('skinport', 1300, 2 * MINUTE)], sales: [], listings: [] });
    const raw = new Database(historyPathOf(file)); // the old store "died" before its next fold
    raw.exec('ALTER TABLE journal_marks DROP COLUMN deferred');
    raw.close();
    const store = createSqlitePriceStore({ path: file });
    await store.init();
    const deferred = store.db.prepare('SELECT deferred FROM history.journal_marks').pluck();
    assert.ok(deferred.all().length > 0 && deferred.all().every((value) => value === null));
    const [row] = await store.readRollups(SERIES.skinport, '10m', 0, T0 + DAY);
    assert.equal(row?.ask?.prices.n, 2, 'what the old release journaled after its marks is folded');
    await store.close();
  });

  test('a new history file has 8 KiB pages; a file of 4 KiB pages keeps them', async () => {
    const fresh = createSqlitePriceStore({ path: freshFile() });
    await fresh.init();
    assert.equal(fresh.db.pragma('history.page_size', { simple: true }), 8192);
    await fresh.close();
    const file = freshFile();
    const old = new Database(historyPathOf(file));
    old.exec(
      'PRAGMA page_size = 4096; CREATE TABLE expired (tier TEXT PRIMARY KEY, bucket INTEGER)',
    );
    old.close();
    const store = createSqlitePriceStore({ path: file });
    await store.init();
    assert.equal(store.db.pragma('history.page_size', { simple: true }), 4096);
    await store.writeBatch(batch);
    const [row] = await store.readRollups(SERIES.skinport, '10m', 0, T0 + DAY);
    assert.equal(row?.ask?.prices.n, 1);
    await store.close();
  });

  test('two folders on one store fold each journal entry once', async () => {
    const file = freshFile();
    const writer = createSqlitePriceStore({ path: file });
    await writer.init();
    await writer.writeBatch(batch);
    const other = createSqlitePriceStore({ path: file });
    await other.init();
    await writer.writeBatch({ ...batch, sides: [ask('skinport', 1300, 2 * MINUTE)], sales: [] });
    await writer.flushRollups();
    await other.flushRollups();
    const [row] = await other.readRollups(SERIES.aggregate, '1d', 0, T0 + DAY);
    assert.equal(row?.ask?.prices.n, 2);
    assert.deepEqual([row?.ask?.prices.min, row?.ask?.prices.max], [1234, 1300], 'on its bases');
    assert.equal(row?.bid?.prices.n, 1);
    assert.equal(row?.sales?.n, 2);
    await other.close();
    await writer.close();
  });

  test('two folders on one file fold each journal entry once', async () => {
    const file = freshFile();
    const writer = createSqlitePriceStore({ path: file });
    await writer.init();
    await writer.writeBatch(batch);
    const reader = createSqlitePriceStore({ path: file });
    await reader.init();
    await writer.writeBatch({ ...batch, sales: [] });
    await writer.flushRollups();
    await reader.flushRollups();
    const [row] = await reader.readRollups(SERIES.aggregate, '1h', 0, T0 + DAY);
    assert.equal(row?.ask?.prices.min, 1234);
    assert.equal(row?.ask?.prices.n, 1, 'the repeated snapshot counts once');
    assert.equal(row?.sales?.n, 2);
    assert.equal(unfoldedBytes(reader.db, file), 0);
    await reader.close();
    await writer.close();
  });
});
