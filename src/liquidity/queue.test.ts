import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ask } from '../pricing/snapshot-fixtures.ts';
import { activeListings, queueAhead } from './queue.ts';

const ladder = ask({
  market: 'csfloat',
  prices: [1000, 1010, 1020],
  quantity: 2,
  fetchedAt: 0,
  listingCount: 40,
});

test('below the best ask: front of the queue', () => {
  assert.equal(queueAhead(ladder, 999), 0);
});

test('at the best ask: behind the listings at that price', () => {
  assert.equal(queueAhead(ladder, 1000), 2);
});

test('inside the ladder: behind every unit priced at or below', () => {
  assert.equal(queueAhead(ladder, 1015), 4);
  assert.equal(queueAhead(ladder, 1020), 6);
});

test('above the last visible level: behind the whole reported supply', () => {
  assert.equal(queueAhead(ladder, 1021), 40);
  assert.equal(activeListings(ladder), 40);
});

test('no asks: front of the queue', () => {
  assert.equal(queueAhead(null, 5000), 0);
  assert.equal(queueAhead(ask({ market: 'csfloat', prices: [], fetchedAt: 0 }), 5000), 0);
});
