import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { DAY, HOUR } from '../domain/clock.ts';
import { MARKET_IDS, type MarketId } from '../domain/markets.ts';
import { MARKET_DEFINITIONS } from './registry.ts';
import { createSimAdapters } from './sim/adapters.ts';
import { TEST_CATALOGS } from './sim/test-catalog.ts';
import { MARKETS_DIR } from './testing/fixtures.ts';

const NOON = Date.parse('2026-11-01T12:00:00Z');

describe('one folder per market', () => {
  test('every market id has a folder with its market.ts, registered once under its own id', () => {
    const folders = readdirSync(MARKETS_DIR).filter((name) =>
      existsSync(join(MARKETS_DIR, name, 'market.ts')),
    );
    assert.deepEqual(folders.sort(), [...MARKET_IDS].sort());
    for (const id of MARKET_IDS) assert.equal(MARKET_DEFINITIONS[id].info.id, id);
  });

  test('a market with a connector parses with the connector own parsers, nothing else', () => {
    for (const market of Object.values(MARKET_DEFINITIONS)) {
      if (market.connector) assert.equal(market.parsers, market.connector.parsers, market.info.id);
    }
  });
});

/** What each market's simulator answers (docs/adding-a-market.md): every kind is exercised. */
const SIMULATED: Readonly<Record<MarketId, readonly string[]>> = {
  steamcommunity: ['histogram', 'price_overview'],
  skinport: ['items', 'sales_history'],
  buff163: ['goods', 'sell_order', 'buy_order', 'bill_order'],
  csfloat: ['price_list', 'doppler_price_list', 'listings', 'buy_orders', 'sales'],
  dmarket: ['aggregated_prices', 'offers', 'last_sales'],
  marketcsgo: ['prices', 'orders', 'items_info'],
  waxpeer: ['prices', 'mass_info'],
  csdeals: ['lowest_prices', 'sales_history'],
  'lis-skins': ['export'],
  whitemarket: ['prices'],
  skindeck: ['export'],
  cstrade: ['prices'],
  itrade: ['export'],
  swapgg: ['export'],
  lootfarm: ['price_list'],
  avanmarket: ['export'],
  'tradeit-store': ['inventory'],
  'tradeit-trade': ['inventory'],
  rusttm: ['prices', 'orders', 'items_info'],
  rustskins: ['marketplace_data'],
  'mannco-store': ['items'],
};

/** Poll times: two fixed ones, then every cadence through a day until every kind was seen. */
function* pollTimes(cadenceMs: number, seen: () => boolean): Generator<number> {
  yield NOON;
  yield NOON + 5 * HOUR;
  for (let now = NOON + cadenceMs; now < NOON + DAY && !seen(); now += cadenceMs) yield now;
}

describe('the simulator answers through each market live parsers', () => {
  const adapters = createSimAdapters({ seed: 42, catalogs: TEST_CATALOGS, faults: false });

  for (const adapter of adapters) {
    const market = MARKET_DEFINITIONS[adapter.info.id];
    const expected = SIMULATED[adapter.info.id];
    test(`${adapter.info.id}: every simulated answer has its folder parser and reads cleanly`, async () => {
      const kinds = new Set<string>();
      const seen = () => expected.every((kind) => kinds.has(kind));
      for (const now of pollTimes(adapter.info.cadenceMs, seen)) {
        for (const game of adapter.info.games) {
          const { pages } = await adapter.fetchRaw({ game, now });
          assert.ok(pages.length > 0, `${game}: no answers`);
          for (const { request, body } of pages) {
            const parser = market.parsers[request.kind];
            assert.ok(parser, `no ${request.kind} parser in src/markets/${adapter.info.id}/`);
            if (market.connector) assert.equal(parser, market.connector.parsers[request.kind]);
            const page = parser(body, { game, now, request });
            assert.deepEqual(page.rejected, [], `${game} ${request.kind}`);
            assert.equal(page.failure, undefined);
            kinds.add(request.kind);
            for (const observation of page.observations) {
              assert.equal(observation.market, adapter.info.id);
              assert.equal(observation.game, game);
              assert.equal(observation.currency, adapter.info.currency);
              assert.equal(observation.scale, adapter.info.scale);
            }
          }
        }
      }
      assert.deepEqual([...kinds].sort(), [...expected].sort());
    });
  }
});
