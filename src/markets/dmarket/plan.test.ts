/**
 * The DMarket poll plan: chunks of 100 titles (the most wanted every poll, a moving window of
 * the rest), a few rotated per-item requests, the catalog fallback, and the per-poll cap.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ConnectorRequest } from '../connector.ts';
import { connector } from './connector.ts';
import { rotatingWindow } from './plan.ts';

const CADENCE = connector.info.cadenceMs;
const names = Array.from({ length: 1000 }, (_, index) => `item ${index}`);

function plan(now: number, priorities: string[], game: 'cs2' | 'rust' = 'cs2'): ConnectorRequest[] {
  return connector.requests({ game, now, credentials: {}, priorities, memory: new Map() });
}

function titlesOf(requests: ConnectorRequest[]): string[] {
  return requests
    .filter((request) => request.kind === 'aggregated_prices')
    .flatMap((request) => (request.body as { filter: { titles: string[] } }).filter.titles);
}

describe('dmarket plan', () => {
  test('rotatingWindow wraps around and returns everything when it fits', () => {
    assert.deepEqual(rotatingWindow(['a', 'b', 'c', 'd', 'e'], 2, 0), ['a', 'b']);
    assert.deepEqual(rotatingWindow(['a', 'b', 'c', 'd', 'e'], 2, 2), ['e', 'a']);
    assert.deepEqual(rotatingWindow(['a', 'b'], 3, 7), ['a', 'b']);
  });

  test('the first 300 titles every poll, then 500 of the rest moving one window a slot', () => {
    const first = titlesOf(plan(0, names));
    const second = titlesOf(plan(CADENCE, names));
    assert.equal(first.length, 800);
    assert.deepEqual(first.slice(0, 300), names.slice(0, 300));
    assert.deepEqual(second.slice(0, 300), names.slice(0, 300));
    assert.deepEqual(first.slice(300), names.slice(300, 800));
    assert.deepEqual(second.slice(300), [...names.slice(800), ...names.slice(300, 600)]);
  });

  test('a poll stays within its cap; Rust asks for no listings', () => {
    const cs2 = plan(0, names);
    const rust = plan(0, names, 'rust');
    assert.ok(cs2.length <= connector.maxRequestsPerPoll!);
    assert.deepEqual(
      cs2.map((request) => request.kind).filter((kind) => kind !== 'aggregated_prices'),
      ['last_sales', 'last_sales', 'last_sales', 'offers', 'offers'],
    );
    assert.ok(rust.every((request) => request.kind !== 'offers'));
  });

  test('duplicate and blank priorities are dropped; none at all pages the catalog', () => {
    assert.deepEqual(titlesOf(plan(0, ['a', ' ', 'a', 'b'])), ['a', 'b']);
    const [only, ...rest] = plan(0, []);
    assert.deepEqual(rest, []);
    assert.deepEqual(only?.body, { filter: { game: 'a8db' }, limit: '100' });
  });
});
