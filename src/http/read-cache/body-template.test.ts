import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Book } from '../../book/book.ts';
import { iso } from '../../domain/clock.ts';
import { renderTemplate, sameBodyUntil, toTemplate } from './body-template.ts';
import { LatestBodyCache } from './latest-body-cache.ts';

const T = Date.parse('2026-11-01T12:00:00Z');

test('a template renders the body with any calculatedAt; a quoted key inside a name is left alone', () => {
  const name = 'odd "calculatedAt":"2026-11-01T12:00:00.000Z" name';
  const body = (at: number) =>
    JSON.stringify({ name, nested: { calculatedAt: iso(at) }, calculatedAt: iso(at) });
  const template = toTemplate(body(T), iso(T));
  assert.equal(template.pieces.length, 3);
  for (const at of [T, T + 1, T + 86_400_123]) {
    assert.equal(renderTemplate(template, iso(at)).toString(), body(at));
  }
});

test('sameBodyUntil finds the first ms a monotone figure changes, exactly', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 1, max: 5_000_000 }),
      fc.integer({ min: 1, max: 9_000_000 }),
      (change, horizon) => {
        const body = (at: number) =>
          JSON.stringify({ step: at - T >= change ? 1 : 0, calculatedAt: iso(at) });
        const until = sameBodyUntil(body, T, T + horizon);
        assert.equal(until, T + Math.min(change, horizon));
      },
    ),
  );
});

test('the cache holds at most maxEntries bodies', () => {
  const cache = new LatestBodyCache(new Book(), undefined, 2);
  const body = (at: number) => JSON.stringify({ calculatedAt: iso(at) });
  for (const url of ['/a', '/b', '/c', '/d']) {
    for (let round = 0; round < 2; round += 1) {
      cache.build({ url, route: '/r', plan: 'pro', game: 'cs2', itemId: url, now: T }, body);
    }
    assert.ok(cache.entryCount() <= 2);
  }
  assert.equal(cache.lookup('/d', 'pro', T)?.toString(), body(T));
  assert.equal(cache.lookup('/d', 'developer', T), null, 'another plan is another entry');
  cache.close();
});
