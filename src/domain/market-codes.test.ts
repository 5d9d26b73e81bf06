import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MARKET_CODES, marketCode, marketOfCode } from './market-codes.ts';
import { MARKET_IDS } from './markets.ts';

/**
 * Every code ever given, in the order given. Append a line when a market is added; never edit
 * or remove one (stored rollups and journals hold these numbers).
 */
const GIVEN: readonly (readonly [string, number])[] = [
  ['steamcommunity', 0],
  ['skinport', 1],
  ['buff163', 2],
  ['csfloat', 3],
  ['dmarket', 4],
  ['marketcsgo', 5],
  ['waxpeer', 6],
  ['csdeals', 7],
  ['lis-skins', 8],
  ['whitemarket', 9],
  ['skindeck', 10],
  ['cstrade', 11],
  ['itrade', 12],
  ['swapgg', 13],
  ['lootfarm', 14],
  ['avanmarket', 15],
  ['tradeit-store', 16],
  ['tradeit-trade', 17],
  ['rusttm', 18],
  ['rustskins', 19],
  ['mannco-store', 20],
];

test('every code given so far is unchanged', () => {
  for (const [market, code] of GIVEN) {
    assert.equal((MARKET_CODES as Record<string, number>)[market], code, market);
  }
});

test('a new market appends: codes are unique, dense, and new ones come after the pinned ones', () => {
  const codes = Object.values(MARKET_CODES).sort((a, b) => a - b);
  assert.deepEqual(codes, [...codes.keys()], 'codes 0..n-1, each once');
  const pinned = new Set(GIVEN.map(([market]) => market));
  for (const [market, code] of Object.entries(MARKET_CODES)) {
    if (!pinned.has(market)) assert.ok(code >= GIVEN.length, `${market} renumbers a given code`);
  }
});

test('every market has a code, and code and market map back to each other', () => {
  assert.equal(Object.keys(MARKET_CODES).length, MARKET_IDS.length);
  for (const market of MARKET_IDS) assert.equal(marketOfCode(marketCode(market)), market);
  assert.equal(marketOfCode(Object.keys(MARKET_CODES).length), undefined);
  assert.ok(Object.isFrozen(MARKET_CODES));
});
