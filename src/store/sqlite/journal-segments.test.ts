import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DAY, manualClock, MINUTE } from '../../domain/clock.ts';
import { T0 } from '../contract-fixtures.ts';
import { ask, sale, SERIES } from '../history-contract-support.ts';
import { eachRecord, frame, journalDirOf, JournalSegments } from './journal-segments.ts';
import { JournalWriter } from './rollup-journal.ts';
import { FOLD_POLICY } from './store-rollups.ts';
import { createSqlitePriceStore } from './sqlite-price-store.ts';
import { looseRows, unfoldedBytes } from './test-support.ts';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'journal-segments-'));
after(() => fs.rmSync(root, { recursive: true, force: true }));
const freshFile = () => path.join(fs.mkdtempSync(path.join(root, 'dir-')), 'prices.db');

const records = (data: Buffer) => {
  const blobs: string[] = [];
  const length = eachRecord(data, (blob) => blobs.push(blob.toString()));
  return { blobs, length };
};

describe('journal records', () => {
  const data = Buffer.concat(['first', '', 'third'].map((text) => frame(Buffer.from(text))));

  test('a record is its length and CRC-32, little-endian, then the blob', () => {
    const record = frame(Buffer.from('abc'));
    assert.equal(record.readUInt32LE(0), 3);
    assert.equal(record.readUInt32LE(4), 0x352441c2, 'the CRC-32 of "abc"');
    assert.equal(record.subarray(8).toString(), 'abc');
    assert.deepEqual(records(data), { blobs: ['first', '', 'third'], length: data.length });
  });

  test('reading stops before a torn or damaged record', () => {
    for (let cut = data.length - 1; cut > data.length - 13; cut -= 1)
      assert.deepEqual(records(data.subarray(0, cut)), { blobs: ['first', ''], length: 21 });
    const damaged = Buffer.from(data);
    damaged[10] = damaged[10]! ^ 1;
    assert.deepEqual(records(damaged), { blobs: [], length: 0 });
    assert.deepEqual(records(Buffer.alloc(7)), { blobs: [], length: 0 });
  });
});

describe('journal segments', () => {
  test('one per store and period, under a new store id after a failed append', () => {
    const file = freshFile();
    const segments = new JournalSegments(file);
    segments.append(7, () => Buffer.from('a'));
    segments.append(7, () => Buffer.from('b'));
    segments.append(8, () => Buffer.from('c'));
    const [first, second] = segments.list();
    assert.deepEqual([first?.period, second?.period], [7, 8]);
    assert.equal(first!.name.slice(2), second!.name.slice(2), 'the same store id');
    assert.deepEqual(records(segments.read(first!.name)).blobs, ['a', 'b']);
    fs.rmSync(journalDirOf(file), { recursive: true });
    assert.throws(() => segments.append(9, () => Buffer.from('d')));
    fs.mkdirSync(journalDirOf(file));
    segments.append(9, () => Buffer.from('e'));
    assert.notEqual(segments.list()[0]!.name.slice(2), first!.name.slice(2), 'a new store id');
    segments.close();
  });

  test('a fold marks what it folded; a segment two periods old is unlinked, then its mark', async () => {
    const file = freshFile();
    const clock = manualClock(T0);
    const store = createSqlitePriceStore({ path: file, clock });
    await store.init();
    const marks = () =>
      store.db
        .prepare<[], [string, number]>('SELECT segment, offset FROM history.journal_marks')
        .raw()
        .all();
    const write = (price: number) =>
      store.writeBatch({ sides: [ask('skinport', price, MINUTE)], sales: [], listings: [] });
    await write(1234);
    const [opened] = fs.readdirSync(journalDirOf(file));
    clock.advance(FOLD_POLICY.closeMs + FOLD_POLICY.graceMs);
    await write(1250);
    const size = fs.statSync(path.join(journalDirOf(file), opened!)).size;
    assert.deepEqual(marks()[0], [opened, size], 'the closed period is folded, whole');
    assert.equal(fs.readdirSync(journalDirOf(file)).length, 2, 'and kept one more period');
    clock.advance(FOLD_POLICY.closeMs);
    await write(1260);
    assert.ok(!fs.readdirSync(journalDirOf(file)).includes(opened!), 'unlinked');
    assert.equal(marks().length, 3, 'its mark goes with the next fold');
    clock.advance(FOLD_POLICY.closeMs);
    await write(1270);
    assert.ok(!marks().some(([name]) => name === opened));
    await store.flushRollups();
    assert.equal(unfoldedBytes(store.db, file), 0);
    const [row] = await store.readRollups(SERIES.skinport, '1d', 0, T0 + DAY);
    assert.equal(row?.ask?.prices.n, 1, 'the same snapshot time counts once');
    assert.equal(row?.ask?.prices.min, 1234);
    await store.close();
  });

  test('after folding its open segment a store appends to a new one (its bases start over)', async () => {
    const file = freshFile();
    const store = createSqlitePriceStore({ path: file, clock: manualClock(T0) });
    await store.init();
    const write = (price: number, at: number) =>
      store.writeBatch({ sides: [ask('skinport', price, at)], sales: [], listings: [] });
    await write(1234, MINUTE);
    await store.flushRollups();
    await write(1250, 2 * MINUTE);
    const names = fs.readdirSync(journalDirOf(file));
    assert.equal(names.length, 2);
    assert.equal(names[0]!.split('-')[0], names[1]!.split('-')[0], 'one period');
    await store.flushRollups();
    const [row] = await store.readRollups(SERIES.skinport, '1d', 0, T0 + DAY);
    assert.deepEqual([row?.ask?.prices.min, row?.ask?.prices.max], [1234, 1250]);
    await store.close();
  });

  test('a fold skips entries of series the prices file does not hold (a power cut lost them)', async () => {
    const file = freshFile();
    const store = createSqlitePriceStore({ path: file });
    await store.init();
    await store.writeBatch({ sides: [], sales: [sale('csfloat', 1150, 2, MINUTE)], listings: [] });
    const writer = new JournalWriter();
    writer.sale(999, 998, 1000, 1, T0 + MINUTE);
    writer.sale(1, 2, 1160, 3, T0 + MINUTE);
    fs.writeFileSync(path.join(journalDirOf(file), '0-lost'), frame(writer.take()));
    await store.flushRollups();
    const series = store.db.prepare(`SELECT DISTINCT series FROM ${looseRows(store.db, '10m')}`);
    assert.ok(
      series
        .pluck()
        .all()
        .every((id) => (id as number) <= 3),
    );
    assert.equal(unfoldedBytes(store.db, file), 0);
    await store.close();
  });
});
