import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Book } from '../book/book.ts';
import { manualClock } from '../domain/clock.ts';
import {
  importFile,
  importObservations,
  parseImportLine,
  parseImportLines,
  type ImportLine,
} from './import-file.ts';
import { recordingStore, TEST_FX, testCatalogs } from './test-fixtures.ts';

const NOW = '2026-11-01T00:00:00Z';
const AK = 'AK-47 | Redline (Field-Tested)';

const bookLine = (overrides: Record<string, unknown> = {}) =>
  JSON.stringify({
    kind: 'book',
    game: 'cs2',
    market: 'skinport',
    item: AK,
    side: 'ask',
    currency: 'USD',
    fetchedAt: '2026-10-31T23:00:00Z',
    levels: [{ price: 1550, quantity: 3, orders: 3 }],
    listingCount: 42,
    ...overrides,
  });

const saleLine = (overrides: Record<string, unknown> = {}) =>
  JSON.stringify({
    kind: 'sale',
    game: 'cs2',
    market: 'skinport',
    item: AK,
    price: 1500,
    currency: 'USD',
    soldAt: '2026-10-31T22:00:00.123Z',
    quantity: 1,
    ...overrides,
  });

const listingLine = (overrides: Record<string, unknown> = {}) =>
  JSON.stringify({
    kind: 'listing',
    game: 'cs2',
    market: 'csfloat',
    item: AK,
    listingId: '3456',
    price: 1600,
    currency: 'USD',
    floatValue: 0.2134,
    paintSeed: 412,
    paintIndex: 282,
    fetchedAt: '2026-10-31T23:30:00+01:00',
    ...overrides,
  });

async function collect(source: Parameters<typeof parseImportLines>[0]): Promise<ImportLine[]> {
  const out: ImportLine[] = [];
  for await (const entry of parseImportLines(source)) out.push(entry);
  return out;
}

function errorOf(line: string): string {
  const parsed = parseImportLine(line);
  assert.equal(parsed.ok, false, `expected an error for ${line}`);
  return parsed.ok ? '' : parsed.reason;
}

describe('parseImportLine', () => {
  test('book lines carry prices in minor units, scale from the currency', () => {
    const parsed = parseImportLine(
      bookLine({ currency: 'JPY', levels: [{ price: 2300, quantity: 1 }] }),
    );
    assert.deepEqual(parsed, {
      ok: true,
      observation: {
        kind: 'book',
        game: 'cs2',
        market: 'skinport',
        item: AK,
        currency: 'JPY',
        scale: 1,
        side: 'ask',
        levels: [{ price: 2300, quantity: 1, orders: null }],
        listingCount: 42,
        fetchedAt: Date.parse('2026-10-31T23:00:00Z'),
        sourceUpdatedAt: null,
        sourceTimeKind: null,
      },
    });
  });

  test('sale quantity defaults to 1; listing optional fields default', () => {
    const sale = parseImportLine(saleLine({ quantity: undefined }));
    assert.ok(sale.ok && sale.observation.kind === 'sale');
    assert.equal(sale.observation.quantity, 1);
    assert.equal(sale.observation.soldAt, Date.parse('2026-10-31T22:00:00.123Z'));
    const listing = parseImportLine(listingLine());
    assert.ok(listing.ok && listing.observation.kind === 'listing');
    assert.equal(listing.observation.fetchedAt, Date.parse('2026-10-31T22:30:00Z'));
    assert.deepEqual(
      [listing.observation.stickers, listing.observation.isStatTrak, listing.observation.phase],
      [[], false, null],
    );
  });

  test('human reasons for structural problems', () => {
    assert.match(errorOf('{"kind": '), /^invalid JSON/);
    assert.match(errorOf('[1,2]'), /the line must be a JSON object/);
    assert.match(
      errorOf(bookLine({ kind: 'quote' })),
      /kind must be "book", "sale" or "listing", got "quote"/,
    );
    assert.match(errorOf(bookLine({ game: 'dota2' })), /unknown game "dota2"/);
    assert.match(errorOf(bookLine({ market: 'bitskins' })), /unknown market "bitskins"/);
    assert.match(
      errorOf(bookLine({ market: 'buff163', game: 'rust' })),
      /does not trade rust items/,
    );
    assert.match(errorOf(bookLine({ item: '' })), /item must be a non-empty string/);
    assert.match(errorOf(bookLine({ currency: 'usd' })), /unknown currency "usd"/);
    assert.match(errorOf(bookLine({ side: 'buy' })), /side must be "ask" or "bid"/);
    assert.match(errorOf(bookLine({ levels: {} })), /levels must be an array/);
    assert.match(
      errorOf(bookLine({ levels: [{ price: '15.50', quantity: 1 }] })),
      /levels\[0\]\.price must be an integer/,
    );
    assert.match(
      errorOf(bookLine({ levels: [{ price: 1, quantity: 1, size: 2 }] })),
      /unknown field "size" in levels\[0\]/,
    );
    assert.match(
      errorOf(bookLine({ fetchedAt: '2026-02-30T00:00:00Z' })),
      /fetchedAt must be an ISO 8601/,
    );
    assert.match(
      errorOf(bookLine({ fetchedAt: '2026-10-31 23:00:00' })),
      /fetchedAt must be an ISO/,
    );
    assert.match(errorOf(bookLine({ fetchedAt: 1_790_000_000_000 })), /fetchedAt must be an ISO/);
    assert.match(errorOf(bookLine({ extra: true })), /unknown field "extra" in line/);
    assert.match(errorOf(saleLine({ price: 15.5 })), /price must be an integer, got 15.5/);
    assert.match(
      errorOf(saleLine({ soldAt: undefined })),
      /soldAt must be an ISO 8601 time with a zone, got nothing/,
    );
    assert.match(errorOf(listingLine({ stickers: [1] })), /stickers must be an array of strings/);
    assert.match(errorOf(listingLine({ isStatTrak: 'yes' })), /isStatTrak must be true or false/);
    assert.match(errorOf(listingLine({ floatValue: '0.2' })), /floatValue must be a number/);
  });
});

describe('parseImportLines', () => {
  test('1-based line numbers; blank lines skipped but counted; CRLF accepted', async () => {
    const text = [
      bookLine(),
      '',
      'not json',
      '   ',
      saleLine({ game: 'csgo' }),
      listingLine(),
    ].join('\r\n');
    const entries = await collect(text);
    assert.deepEqual(
      entries.map((entry) => ('error' in entry ? `${entry.line}:error` : `${entry.line}:ok`)),
      ['1:ok', '3:error', '5:error', '6:ok'],
    );
    const bad = entries[2]!;
    assert.ok('error' in bad && /unknown game "csgo"/.test(bad.error));
  });

  test('reads an async iterable of lines', async () => {
    async function* lines() {
      yield saleLine();
      yield '{}';
    }
    const entries = await collect(lines());
    assert.equal(entries.length, 2);
    assert.ok('observation' in entries[0]! && 'error' in entries[1]!);
  });
});

function importDeps(chunkSize?: number) {
  const store = recordingStore();
  const book = new Book();
  const deps = {
    catalogs: testCatalogs(),
    fx: TEST_FX,
    book,
    store,
    clock: manualClock(NOW),
    chunkSize,
  };
  return { store, book, deps };
}

describe('importObservations', () => {
  test('a mixed file: every good line kept, every bad one reported by line', async () => {
    const text = [
      bookLine(),
      'oops',
      saleLine(),
      saleLine({ price: -5 }),
      listingLine({ floatValue: 1.5 }),
      bookLine({ item: 'AWP | Asiimov (Field-Tested)', currency: 'EUR', side: 'bid' }),
      bookLine({ item: 'Unknown Thing' }),
      '',
      listingLine(),
    ].join('\n');
    const { store, book, deps } = importDeps(2);
    const summary = await importObservations(parseImportLines(text), deps);
    assert.equal(summary.lines, 8);
    assert.equal(summary.accepted, 4);
    assert.equal(summary.rejectedCount, 4);
    assert.deepEqual(
      summary.rejected.map(({ line, code }) => [line, code]),
      [
        [2, 'invalid'],
        [4, 'negative_price'],
        [5, 'malformed'],
        [7, 'unknown_item'],
      ],
    );
    assert.match(summary.rejected[2]!.reason, /floatValue 1.5 is outside \[0, 1\]/);
    assert.deepEqual(summary.written, { sides: 2, sales: 1, listings: 1, transactions: 3 });
    assert.equal(store.batches.length, 3);
    assert.equal(book.sides('cs2', 'awp-asiimov-ft')[0]?.bid?.levels[0]?.price, 1674);
    assert.equal(book.listings('cs2', 'ak47-redline-ft').length, 1);
    assert.equal(book.sales('cs2', 'ak47-redline-ft')[0]?.ingestedAt, Date.parse(NOW));
  });

  test('rejections are listed in line order, unparsed and refused lines merged', async () => {
    const text = [
      bookLine({ item: 'Unknown Thing' }),
      'oops',
      saleLine({ price: -5 }),
      '{"kind":"nope"}',
      saleLine(),
      bookLine({ item: 'Another Unknown' }),
      'x',
    ].join('\n');
    const lines = async (maxRejectedListed: number) => {
      const { deps } = importDeps();
      const summary = await importObservations(parseImportLines(text), {
        ...deps,
        maxRejectedListed,
      });
      assert.equal(summary.rejectedCount, 6);
      return summary.rejected.map((rejection) => rejection.line);
    };
    assert.deepEqual(await lines(100), [1, 2, 3, 4, 6, 7]);
    assert.deepEqual(await lines(3), [1, 2, 3], 'the first ones by line, not by arrival');
  });

  test('lists a bounded number of rejections but counts them all', async () => {
    const { deps } = importDeps();
    const lines = Array.from({ length: 30 }, () => 'x').join('\n');
    const summary = await importObservations(parseImportLines(lines), {
      ...deps,
      maxRejectedListed: 5,
    });
    assert.equal(summary.rejectedCount, 30);
    assert.equal(summary.rejected.length, 5);
    assert.equal(summary.written.transactions, 0);
  });

  test('a store failure stops the import and names the chunk lines', async () => {
    const { store, book, deps } = importDeps();
    store.failWrites = 1;
    await assert.rejects(
      importObservations(parseImportLines([bookLine(), saleLine()].join('\n')), deps),
      /store write failed for lines 1-2/,
    );
    assert.deepEqual(book.sides('cs2', 'ak47-redline-ft'), []);
  });
});

describe('importFile', () => {
  test('streams a file in chunks of 5,000 observations per transaction', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'import-'));
    try {
      const path = join(dir, 'prices.ndjson');
      const lines = Array.from({ length: 12_001 }, (_, i) =>
        i === 7_000 ? '{"kind":"sale"}' : saleLine({ price: 1000 + i }),
      );
      await writeFile(path, lines.join('\n') + '\n');
      const { store, deps } = importDeps();
      const summary = await importFile(path, deps);
      assert.equal(summary.accepted, 12_000);
      assert.deepEqual(
        summary.rejected.map((entry) => entry.line),
        [7_001],
      );
      assert.deepEqual(
        store.batches.map((batch) => batch.sales.length),
        [5_000, 5_000, 2_000],
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
