import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { marketCode } from '../../domain/market-codes.ts';
import { MARKET_IDS } from '../../domain/markets.ts';
import { entersAggregate, type SideObservation } from '../../pricing/rollups.ts';
import { RollupCodecError } from '../rollup-codec.ts';
import { frame } from './journal-segments.ts';
import {
  JournalWriter,
  replayJournal,
  replaySegment,
  SlotBases,
  type JournalSink,
} from './rollup-journal.ts';
import { rowFormatBlob } from './rollup-journal-support.ts';

type Entry =
  | { kind: 'side'; own: number; all: number; obs: SideObservation }
  | { kind: 'sale'; own: number; all: number; price: number; units: number; at: number };

/** Stands for the series directory: the aggregate series of a market series' item. */
const aggregateOf = (own: number) => own + 1;

function collecting(entries: Entry[]): JournalSink {
  return {
    side: (own, all, obs) => entries.push({ kind: 'side', own, all, obs }),
    sale: (own, all, price, units, at) =>
      entries.push({ kind: 'sale', own, all, price, units, at }),
  };
}

function replayed(blob: Uint8Array, bases = new SlotBases()): Entry[] {
  const entries: Entry[] = [];
  replayJournal(blob, collecting(entries), aggregateOf, bases);
  return entries;
}

/** What a blob without the aggregate column replays: the item's aggregate where it enters. */
const resolved = (entries: readonly Entry[]): Entry[] =>
  plain(entries).map((entry) => {
    const enters = entry.kind === 'sale' || entersAggregate(entry.obs);
    return { ...entry, all: enters ? aggregateOf(entry.own) : 0 };
  });

function write(writer: JournalSink, entry: Entry): void {
  if (entry.kind === 'side') writer.side(entry.own, entry.all, entry.obs);
  else writer.sale(entry.own, entry.all, entry.price, entry.units, entry.at);
}

/** Four entries as the release before wrote them, the aggregate series in a column of its own. */
const WITH_ALL_BLOB = 'S4sVgAQAAgACAgQBAwYCAgECAAECpBOLAo8D9AMEAQgFBAIIDcDJxsayaAAKyakHAw==';

const count = fc.oneof(fc.nat(300), fc.maxSafeNat());
const time = fc.oneof(
  fc.integer({ min: 1_700_000_000_000, max: 1_900_000_000_000 }),
  fc.integer({ min: 0, max: 2 ** 50 }),
);
const sideEntry = fc.record({
  kind: fc.constant('side' as const),
  own: count,
  all: count,
  obs: fc.record({
    market: fc.constantFrom(...MARKET_IDS),
    side: fc.constantFrom('ask' as const, 'bid' as const),
    price: count,
    size: count,
    quantity: count,
    at: time,
  }),
});
const saleEntry = fc.record({
  kind: fc.constant('sale' as const),
  own: count,
  all: count,
  price: count,
  units: count,
  at: time,
});

/** fast-check's records have no prototype; replayed entries are plain objects. */
const plain = (entries: readonly Entry[]): Entry[] => JSON.parse(JSON.stringify(entries));

/** A blob of the first format: eight float64s an entry. */
function legacyBlob(entries: readonly Entry[]): Buffer {
  const values = entries.flatMap((entry) =>
    entry.kind === 'sale'
      ? [2, 0, entry.own, entry.all, entry.price, entry.units, 0, entry.at]
      : [
          entry.obs.side === 'ask' ? 0 : 1,
          marketCode(entry.obs.market),
          entry.own,
          entry.all,
          entry.obs.price,
          entry.obs.size,
          entry.obs.quantity,
          entry.obs.at,
        ],
  );
  return Buffer.from(new Float64Array(values).buffer);
}

describe('rollup journal blobs', () => {
  test('replay hands back every entry written, in order, exactly', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(sideEntry, saleEntry), { maxLength: 60 }), (entries) => {
        const writer = new JournalWriter();
        for (const entry of entries) write(writer, entry);
        assert.equal(writer.count === 0, entries.length === 0);
        assert.deepEqual(replayed(writer.take()), resolved(entries));
        assert.equal(writer.count, 0);
      }),
    );
  });

  test('each batch is a blob of its own, and a cleared batch leaves nothing behind', () => {
    const first: Entry = { kind: 'sale', own: 3, all: 4, price: 1150, units: 2, at: 5_000 };
    const second: Entry = { kind: 'sale', own: 5, all: 4, price: 990, units: 1, at: 1_000 };
    const writer = new JournalWriter();
    write(writer, first);
    writer.clear();
    assert.equal(writer.count, 0);
    write(writer, second);
    assert.deepEqual(replayed(writer.take()), resolved([second]));
    write(writer, first);
    assert.deepEqual(replayed(writer.take()), resolved([first]));
  });

  test("a market fetch's entries take under half the bytes of the row format before", () => {
    const writer = new JournalWriter();
    const at = Date.parse('2026-11-24T12:00:00Z');
    const entries: Entry[] = [];
    for (let index = 0; index < 2000; index += 1) {
      const price = 500 + ((index * 7919) % 90_000);
      for (const side of ['ask', 'bid'] as const) {
        const obs = {
          market: 'csfloat' as const,
          side,
          price,
          size: 1 + (index % 40),
          quantity: 0,
          at,
        };
        entries.push({ kind: 'side', own: 200_000 + index, all: 20_000 + index, obs });
      }
    }
    for (const entry of entries) write(writer, entry);
    const bytes = writer.take().length;
    const before = rowFormatBlob((sink) => entries.forEach((entry) => write(sink, entry))).length;
    assert.ok(bytes * 2 < before, `${bytes} bytes for ${entries.length} entries, ${before} before`);
  });

  test('blobs of the row format (the release before) still replay', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(sideEntry, saleEntry), { maxLength: 30 }), (entries) => {
        const blob = rowFormatBlob((sink) => entries.forEach((entry) => write(sink, entry)));
        assert.deepEqual(replayed(blob), plain(entries));
      }),
    );
  });

  test('blobs with the aggregate column (the release before) replay it as written', () => {
    const blob = Buffer.from(WITH_ALL_BLOB, 'base64');
    const at = 1_793_491_260_000;
    const common = { size: 2, quantity: 2, at };
    assert.deepEqual(replayed(blob), [
      {
        kind: 'side',
        own: 3,
        all: 1,
        obs: { market: 'skinport', side: 'ask', price: 1234, ...common },
      },
      {
        kind: 'side',
        own: 4,
        all: 1,
        obs: { market: 'csfloat', side: 'bid', price: 1100, size: 1, quantity: 3, at },
      },
      {
        kind: 'side',
        own: 5,
        all: 0,
        obs: { market: 'buff163', side: 'bid', price: 900, size: 5, quantity: 7, at: at + 5 },
      },
      { kind: 'sale', own: 4, all: 1, price: 1150, units: 2, at: at - 60_000 },
    ]);
  });

  test('blobs an older release journaled (float64 entries) still replay', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(sideEntry, saleEntry), { maxLength: 30 }), (entries) => {
        assert.deepEqual(replayed(legacyBlob(entries)), plain(entries));
      }),
    );
  });

  test('values the codec cannot store fail the batch when written', () => {
    const writer = new JournalWriter();
    const obs: SideObservation = {
      market: 'skinport',
      side: 'ask',
      price: -1,
      size: 1,
      quantity: 0,
      at: 1,
    };
    assert.throws(() => writer.side(1, 2, obs), RollupCodecError);
    assert.throws(() => writer.side(1, 2, { ...obs, price: 5, at: 1.5 }), RollupCodecError);
    assert.throws(() => writer.sale(1, 2, 0.5, 1, 1), RollupCodecError);
    assert.throws(() => writer.sale(1, 2, 5, 1, -1), RollupCodecError);
    assert.throws(() => writer.sale(1, 2, 5, 1, 2 ** 50 + 1), RollupCodecError);
  });

  test("a segment's blobs replay in order on its bases, whatever batches failed between", () => {
    const batch = fc.record({
      entries: fc.array(
        fc.oneof(
          sideEntry.map((entry) => ({ ...entry, own: entry.own % 4 })),
          saleEntry.map((entry) => ({ ...entry, own: entry.own % 4 })),
        ),
        { maxLength: 8 },
      ),
      outcome: fc.constantFrom('appended', 'failed', 'rolled back'),
    });
    fc.assert(
      fc.property(fc.array(batch, { maxLength: 12 }), (batches) => {
        const writer = new JournalWriter();
        const [records, kept] = [[] as Buffer[], [] as Entry[]];
        for (const { entries, outcome } of batches) {
          for (const entry of entries) write(writer, entry);
          if (outcome !== 'appended') writer.clear();
          if (outcome !== 'appended' || entries.length === 0) continue;
          records.push(frame(writer.take()));
          kept.push(...entries);
        }
        const [data, replayedEntries] = [Buffer.concat(records), [] as Entry[]];
        assert.equal(
          replaySegment(data, () => collecting(replayedEntries), aggregateOf),
          data.length,
        );
        assert.deepEqual(replayedEntries, resolved(kept));
      }),
    );
  });

  test('records up to the mark only move the bases on', () => {
    const writer = new JournalWriter();
    const fetch = (price: number) => ({
      kind: 'side' as const,
      own: 7,
      all: 8,
      obs: {
        market: 'skinport' as const,
        side: 'ask' as const,
        price,
        size: 2,
        quantity: 0,
        at: 1,
      },
    });
    const records = [1200, 1250, 1250].map((price) => {
      write(writer, fetch(price));
      return frame(writer.take());
    });
    const entries: Entry[] = [];
    const data = Buffer.concat(records);
    const sink = collecting(entries);
    replaySegment(data, (start) => (start < records[0]!.length ? null : sink), aggregateOf);
    assert.deepEqual(entries, resolved([fetch(1250), fetch(1250)]));
  });

  test('a fetch of quotes that held costs a fraction of the first', () => {
    const writer = new JournalWriter();
    const fetch = () => {
      for (let index = 0; index < 2000; index += 1) {
        const price = 500 + ((index * 7919) % 90_000);
        const obs = {
          market: 'csfloat' as const,
          side: 'ask' as const,
          price,
          size: 1 + (index % 40),
        };
        writer.side(200_000 + index, 0, { ...obs, quantity: 0, at: 1_800_000_000_000 });
      }
      return writer.take().length;
    };
    const [first, again] = [fetch(), fetch()];
    assert.ok(again * 10 < first, `${again} bytes again against ${first}`);
  });

  test('a cut blob is refused, not read short', () => {
    const writer = new JournalWriter();
    writer.sale(300, 400, 123_456, 2, 1_800_000_000_000);
    const blob = writer.take();
    assert.throws(() => replayed(blob.subarray(0, blob.length - 1)), RollupCodecError);
    const { length } = rowFormatBlob((sink) => sink.sale(300, 400, 123_456, 2, 1_800_000_000_000));
    assert.ok(blob.length <= length + 8, 'a blob of one entry costs little more than before');
  });
});
