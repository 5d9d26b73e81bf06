import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DAY, MINUTE } from '../../domain/clock.ts';
import { T0 } from '../contract-fixtures.ts';
import { TIERS } from '../../pricing/rollup-buckets.ts';
import { ask, bid, sale, SERIES } from '../history-contract-support.ts';
import { historyPathOf } from './history-file.ts';
import { journalDirOf } from './journal-segments.ts';
import { replayJournal, replaySegment, SlotBases } from './rollup-journal.ts';
import { rowFormatBlob, UnbasedWriter } from './rollup-journal-support.ts';
import { createSqlitePriceStore, type SqlitePriceStore } from './sqlite-price-store.ts';
import { unfoldedBytes } from './test-support.ts';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'leftover-journal-'));
after(() => fs.rmSync(root, { recursive: true, force: true }));

/** The blobs of a store's journal segments, in order, in the format of the release before the
 * bases (UNBASED: what its `rollup_journal` table held), the segments removed. */
function takeSegments(file: string): Buffer[] {
  const blobs: Buffer[] = [];
  for (const name of fs.readdirSync(journalDirOf(file)).sort()) {
    const segment = path.join(journalDirOf(file), name);
    const writer = new UnbasedWriter();
    replaySegment(
      fs.readFileSync(segment),
      () => writer,
      () => 0,
      () => blobs.push(writer.take()),
    );
    fs.rmSync(segment);
  }
  return blobs;
}

/** A store file holding a batch journaled by a store that never folded it (it "died"). */
async function leftBehind(): Promise<{ file: string; dead: SqlitePriceStore }> {
  const file = path.join(fs.mkdtempSync(path.join(root, 'dir-')), 'prices.db');
  const dead = createSqlitePriceStore({ path: file });
  await dead.init();
  await dead.writeBatch({
    sides: [ask('skinport', 1234, MINUTE)],
    sales: [sale('csfloat', 1150, 2, MINUTE)],
    listings: [],
  });
  return { file, dead };
}

describe('journal entries a dead process left behind', () => {
  test('a store opened with foldLeftoversOnOpen false leaves them; a writer folds them', async () => {
    const { file, dead } = await leftBehind();
    const reader = createSqlitePriceStore({ path: file, foldLeftoversOnOpen: false });
    await reader.init();
    assert.ok(unfoldedBytes(reader.db, file) > 0, 'init did not fold');
    assert.equal((await reader.loadSides('cs2')).length, 1, 'latest state is there at once');

    const writer = createSqlitePriceStore({ path: file, foldLeftoversOnOpen: false });
    await writer.init();
    await writer.flushRollups();
    assert.equal(unfoldedBytes(reader.db, file), 0, 'the writer folded them');
    const [row] = await reader.readRollups(SERIES.aggregate, '1h', 0, T0 + DAY);
    assert.equal(row?.ask?.prices.min, 1234);
    assert.equal(row?.sales?.n, 2);
    await Promise.all([writer.close(), reader.close()]);
    dead.db.close();
  });

  test('by default an inline store folds them before init resolves', async () => {
    const { file, dead } = await leftBehind();
    const reopened = createSqlitePriceStore({ path: file });
    await reopened.init();
    assert.equal(unfoldedBytes(reopened.db, file), 0);
    await reopened.close();
    dead.db.close();
  });

  test('entries earlier releases left in their rollup_journal table fold after an upgrade, in every format', async () => {
    const stores: SqlitePriceStore[] = [];
    for (const format of ['segments', 'columns', 'rows', 'folded'] as const) {
      const file = path.join(fs.mkdtempSync(path.join(root, 'dir-')), 'prices.db');
      const dead = createSqlitePriceStore({ path: file, foldLeftoversOnOpen: false });
      await dead.init();
      for (let minute = 0; minute < 30; minute += 7) {
        await dead.writeBatch({
          sides: [
            ask('skinport', 1234 + minute * 3, minute * MINUTE),
            bid('skinport', 1100 - minute, minute * MINUTE),
            ask('csfloat', 1250 - minute * 2, minute * MINUTE + 5),
          ],
          sales: [sale('csfloat', 1150 + minute, 1 + (minute % 3), minute * MINUTE)],
          listings: [],
        });
      }
      dead.db.close();
      if (format !== 'segments') {
        const blobs = takeSegments(file);
        assert.equal(blobs.length, 5, 'nothing was folded');
        const db = new Database(file);
        const aggregateOf = (own: number) =>
          db
            .prepare(
              `SELECT a.id FROM history_series s JOIN history_series a
              ON (a.game, a.item_id, a.market) = (s.game, s.item_id, '') WHERE s.id = ?`,
            )
            .pluck()
            .get(own) as number;
        const insert = db.prepare('INSERT INTO rollup_journal (entries) VALUES (?)');
        for (const blob of blobs)
          insert.run(
            format === 'rows'
              ? rowFormatBlob((sink) => replayJournal(blob, sink, aggregateOf, new SlotBases()))
              : blob,
          );
        // An earlier release folded through id 2 already: those entries are not folded again.
        if (format === 'folded') {
          db.prepare('ATTACH ? AS history').run(historyPathOf(file));
          db.exec('UPDATE history.fold_mark SET journal_id = 2');
        }
        db.close();
      }
      const upgraded = createSqlitePriceStore({ path: file });
      await upgraded.init();
      assert.equal(upgraded.db.prepare('SELECT count(*) FROM rollup_journal').pluck().get(), 0);
      assert.deepEqual(
        fs.readdirSync(journalDirOf(file)).filter((name) => name.startsWith('0-')),
        [],
        'the table segment is gone once folded',
      );
      stores.push(upgraded);
    }
    for (const series of Object.values(SERIES)) {
      for (const tier of TIERS) {
        const [segments, columns, rows, folded] = await Promise.all(
          stores.map((store) => store.readRollups(series, tier, 0, T0 + DAY)),
        );
        assert.deepEqual(columns, segments);
        assert.deepEqual(rows, segments);
        if (series === SERIES.aggregate) assert.ok(segments!.length > 0);
        if (series === SERIES.aggregate && tier === '1d')
          assert.equal(
            folded![0]!.sales!.n,
            segments![0]!.sales!.n - 1 - 2,
            'ids 1 and 2 were folded before',
          );
      }
    }
    await Promise.all(stores.map((store) => store.close()));
  });
});
