import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { gunzipSync } from 'node:zlib';
import { Book } from '../book/book.ts';
import { manualClock } from '../domain/clock.ts';
import { side } from '../pricing/snapshot-fixtures.ts';
import type { Timers } from '../domain/timers.ts';
import { ItemsAllCache } from './items-all-cache.ts';
import { CS2_ITEMS, testCatalog } from './test-support.ts';

function fakeTimers() {
  const pending: { callback: () => void; ms: number }[] = [];
  const timers: Timers = {
    set: (callback, ms) => {
      const entry = { callback, ms };
      pending.push(entry);
      return entry;
    },
    clear: (handle) => {
      pending.splice(pending.indexOf(handle as (typeof pending)[number]), 1);
    },
  };
  return { timers, pending };
}

function setup() {
  const clock = manualClock('2026-11-01T12:00:00Z');
  const book = new Book();
  const { timers, pending } = fakeTimers();
  const cache = new ItemsAllCache({
    book,
    catalog: testCatalog('cs2', CS2_ITEMS),
    clock,
    timers,
    minIntervalMs: 5000,
  });
  const put = (price: number) =>
    book.apply({
      sides: [
        side('ask', {
          market: 'skinport',
          prices: [price],
          fetchedAt: clock.now(),
          itemId: 'cs2-redline-ft',
        }),
      ],
      sales: [],
      listings: [],
    });
  return { clock, book, cache, pending, put };
}

async function fire(cache: ItemsAllCache, pending: { callback: () => void }[]) {
  pending.shift()!.callback();
  await cache.settled();
}

describe('ItemsAllCache', () => {
  test('nothing before the first build; the payload is JSON, gzip of it and a content ETag', async () => {
    const { cache } = setup();
    assert.equal(cache.current(), null);
    await cache.rebuild();
    const payload = cache.current()!;
    assert.equal(payload.rowCount, 5);
    assert.equal(gunzipSync(payload.gzip).length, payload.jsonBytes);
    const etag = payload.etag;
    await cache.rebuild();
    assert.equal(cache.current()!.etag, etag, 'same content, same ETag');
    cache.close();
  });

  test('book changes are debounced to one build per interval and change the ETag', async () => {
    const { clock, cache, pending, put } = setup();
    put(100);
    put(101);
    put(102);
    assert.equal(pending.length, 1, 'one timer for a burst of changes');
    assert.equal(pending[0]!.ms, 0);
    await fire(cache, pending);
    const first = cache.current()!;
    assert.match(gunzipSync(first.gzip).toString(), /"effectiveUsdCents":102/);
    clock.advance(1000);
    put(200);
    assert.equal(pending[0]!.ms, 4000, 'waits for the rest of the interval');
    await fire(cache, pending);
    assert.notEqual(cache.current()!.etag, first.etag);
    cache.close();
  });

  test('a rebuild serializes only the items a book change named since the last build', async () => {
    const { book, cache, clock, put } = setup();
    const read: string[] = [];
    const bestAsks = book.bestAsks.bind(book);
    book.bestAsks = (game, itemId) => {
      read.push(itemId);
      return bestAsks(game, itemId);
    };
    await cache.rebuild();
    assert.equal(read.length, 5, 'the first build reads every item');
    read.length = 0;
    await cache.rebuild();
    assert.deepEqual(read, [], 'nothing changed: every row from the cache');
    put(150);
    clock.advance(1000);
    await cache.rebuild();
    assert.deepEqual(read, ['cs2-redline-ft']);
    assert.match(gunzipSync(cache.current()!.gzip).toString(), /"effectiveUsdCents":150/);
    const rows = JSON.parse(gunzipSync(cache.current()!.gzip).toString()) as { id: string }[];
    assert.equal(rows.length, 5);
    cache.close();
  });

  test('builds asked for at once run one after the other and publish the newest', async () => {
    const { cache, put } = setup();
    put(300);
    const both = [cache.rebuild(), cache.rebuild()];
    put(301);
    await Promise.all([...both, cache.rebuild()]);
    assert.match(gunzipSync(cache.current()!.gzip).toString(), /"effectiveUsdCents":301/);
    cache.close();
  });

  test('changes of the other game do not schedule a build', () => {
    const { book, cache, pending, clock } = setup();
    book.apply({
      sides: [
        side('ask', {
          market: 'rusttm',
          prices: [1],
          fetchedAt: clock.now(),
          itemId: 'r',
          game: 'rust',
        }),
      ],
      sales: [],
      listings: [],
    });
    assert.equal(pending.length, 0);
    cache.close();
  });
});
