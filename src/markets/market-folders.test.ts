import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { HOUR } from '../domain/clock.ts';
import { MARKET_IDS } from '../domain/markets.ts';
import { MARKET_DEFINITIONS } from './registry.ts';
import { createSimAdapters } from './sim/adapters.ts';
import { TEST_CATALOGS } from './sim/test-catalog.ts';
import { MARKETS_DIR } from './testing/fixtures.ts';

const NOON = Date.parse('2026-11-01T12:00:00Z');
const TIMES = [NOON, NOON + 5 * HOUR];

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

describe('the simulator answers through each market live parsers', () => {
  const adapters = createSimAdapters({ seed: 42, catalogs: TEST_CATALOGS, faults: false });

  for (const adapter of adapters) {
    const market = MARKET_DEFINITIONS[adapter.info.id];
    test(`${adapter.info.id}: every simulated answer has its folder parser and reads cleanly`, async () => {
      const kinds = new Set<string>();
      for (const game of adapter.info.games) {
        for (const now of TIMES) {
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
      assert.ok(kinds.size > 0);
    });
  }
});
