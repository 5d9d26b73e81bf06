import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { deflateRawSync } from 'node:zlib';
import fc from 'fast-check';
import { DAY, MINUTE } from '../../domain/clock.ts';
import { compactHistory } from '../history-compaction.ts';
import { RollupCodecError } from '../rollup-codec.ts';
import { ask, SERIES } from '../history-contract-support.ts';
import { side, T0 } from '../contract-fixtures.ts';
import {
  CHUNK_SERIES,
  chunkKey,
  decodeChunk,
  encodeChunk,
  chunkRow,
  firstOfChunk,
  type ChunkEntries,
} from './rollup-chunks.ts';
import { createSqlitePriceStore } from './sqlite-price-store.ts';

const section = fc.option(fc.uint8Array({ minLength: 1, maxLength: 40 }), { nil: null });
const entriesOf = (key: number) =>
  fc
    .uniqueArray(fc.nat(CHUNK_SERIES - 1), { minLength: 1, maxLength: 40 })
    .chain((offsets) =>
      fc.tuple(
        ...offsets.map((offset) => fc.tuple(fc.constant(offset), section, section, section)),
      ),
    )
    .map((rows) => {
      const entries: ChunkEntries = new Map();
      for (const [offset, ...sections] of rows) {
        const [a, b, c] = sections.map((bytes) => (bytes ? Buffer.from(bytes) : null));
        entries.set(firstOfChunk(key) + offset, [a!, b!, c!]);
      }
      return entries;
    });

describe('rollup chunks', () => {
  test('a chunk gives back every entry it was written with, in any chunk', () => {
    fc.assert(
      fc.property(
        fc.nat(5000).chain((index) => fc.tuple(fc.constant(-1 - index), entriesOf(-1 - index))),
        ([key, entries]) => {
          const decoded = decodeChunk(key, encodeChunk(entries));
          assert.deepEqual(
            [...decoded].sort(([a], [b]) => a - b),
            [...entries].sort(([a], [b]) => a - b),
          );
          for (const series of decoded.keys()) assert.equal(chunkKey(series), key);
        },
      ),
    );
  });

  test('a chunk cut short or running on is refused', () => {
    const entries: ChunkEntries = new Map([[3, [Buffer.of(1, 2, 3), null, Buffer.of(9)]]]);
    const body = (extra: number[]) =>
      deflateRawSync(Buffer.concat([Buffer.of(1, 3, 3, 0, 1), Buffer.of(1, 2, 3, 9, ...extra)]));
    assert.deepEqual(decodeChunk(-1, body([])), entries);
    assert.throws(() => decodeChunk(-1, body([7])), RollupCodecError);
    const cut = deflateRawSync(Buffer.of(1, 3, 3, 0, 1, 1, 2));
    assert.throws(() => decodeChunk(-1, cut), RollupCodecError);
  });

  test("a read finds one series' sections in place: their bits and offset", () => {
    const entries: ChunkEntries = new Map([
      [firstOfChunk(-2), [Buffer.of(1, 2), null, null]],
      [firstOfChunk(-2) + 5, [null, Buffer.of(5, 6), Buffer.of(7)]],
    ]);
    const blob = encodeChunk(entries);
    const found = chunkRow(-2, blob, firstOfChunk(-2) + 5)!;
    assert.equal(found.bits, 2 | 4);
    assert.deepEqual(found.body.subarray(found.at), Buffer.of(5, 6, 7));
    assert.equal(chunkRow(-2, blob, firstOfChunk(-2) + 1), null);
  });

  test("a fold appends a bucket's rows in key order, so its table's pages stay full", async () => {
    const store = createSqlitePriceStore({ path: ':memory:' });
    await store.init();
    const markets = ['skinport', 'csfloat', 'buff163', 'steamcommunity'] as const;
    const at = { fetchedAt: T0 + MINUTE, ingestedAt: T0 + MINUTE };
    const items = Array.from({ length: 4000 }, (_, index) => `item-${index}`);
    const sides = items.flatMap((itemId) =>
      markets.map((market) => side({ market, itemId, ...at })),
    );
    await store.writeBatch({ sides, sales: [], listings: [] });
    await store.flushRollups();
    // dbstat's pgsize of an attached file is the main file's page size: taken from the pragma.
    const size = store.db.pragma('history.page_size', { simple: true }) as number;
    const page = store.db
      .prepare(
        "SELECT sum(unused) * 1.0 / count(*) unusedBytes, count(*) pages FROM dbstat('history') " +
          "WHERE name GLOB 'rollups_10m_*'",
      )
      .get() as { unusedBytes: number; pages: number };
    const unused = page.unusedBytes / size;
    assert.ok(page.pages > 20, `${page.pages} pages`);
    // Chunks written in falling key order left 27% unused here, 42% of a full-catalog bucket.
    assert.ok(unused < 0.2, `${(unused * 100).toFixed(1)}% unused`);
    await store.close();
  });

  test("a series' own row wins over its chunk's entry in reads, folds and packing", async () => {
    const store = createSqlitePriceStore({ path: ':memory:' });
    await store.init();
    const observe = async (price: number, minute: number) => {
      const sides = [ask('skinport', price, minute * MINUTE)];
      await store.writeBatch({ sides, sales: [], listings: [] });
      await store.flushRollups();
    };
    const prices = async () => {
      const [row] = await store.readRollups(SERIES.skinport, '10m', 0, T0 + DAY);
      const { n, min, max } = row!.ask!.prices;
      return { n, min, max };
    };
    const sql = (text: string) => store.db.prepare(text);
    const table = () =>
      sql("SELECT name FROM history.sqlite_schema WHERE name GLOB 'rollups_10m_*'").pluck().get();
    await observe(1000, 1);
    const own = sql("SELECT id FROM history_series WHERE market = 'skinport'").pluck().get();
    const [bucket, key, first] = sql(`SELECT * FROM history.${table()} WHERE series < 0`)
      .raw()
      .get() as [number, number, Buffer];
    await observe(1200, 2);
    assert.deepEqual(await prices(), { n: 2, min: 1000, max: 1200 }, 'late data joined the chunk');
    // A row of its own with the first fold's sections, beside the chunk's entry, as an unpacked
    // page or an earlier release leaves one.
    const sections = decodeChunk(key, first).get(own as number)!;
    sql(`INSERT INTO history.${table()} VALUES (?, ?, ?, ?, ?)`).run(bucket, own, ...sections);
    assert.deepEqual(await prices(), { n: 1, min: 1000, max: 1000 }, 'the read took the own row');
    await observe(800, 3);
    assert.deepEqual(await prices(), { n: 2, min: 800, max: 1000 }, 'the fold merged into it');
    await compactHistory(store, T0 + 8 * DAY, {});
    assert.equal(sql('SELECT count(*) FROM history.pages_10m').pluck().get(), 2);
    assert.deepEqual(await prices(), { n: 2, min: 800, max: 1000 }, 'packed from the own row');
    await store.close();
  });
});
