import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Catalog } from '../catalog/catalog.ts';
import { fullCatalogs } from '../catalog/test-catalogs.ts';
import type { Game } from '../domain/games.ts';
import { MARKET_INFO } from './registry.ts';
import { LIVE_CONNECTORS } from './connectors.ts';
import { assertPlanFixture, assertResponseFixture } from './testing/check-fixtures.ts';
import { isPlanFixture, loadFixtures, MARKETS_DIR } from './testing/fixtures.ts';

describe('live connectors: the registry', () => {
  test('every connector folder is registered, once', () => {
    const folders = readdirSync(MARKETS_DIR).filter((name) =>
      existsSync(join(MARKETS_DIR, name, 'connector.ts')),
    );
    const ids = LIVE_CONNECTORS.map((connector) => connector.info.id);
    assert.deepEqual([...ids].sort(), folders.sort());
    assert.equal(new Set(ids).size, ids.length);
  });

  for (const connector of LIVE_CONNECTORS) {
    test(`${connector.info.id}: info agrees with the market registry`, () => {
      const { info } = connector;
      const registered = MARKET_INFO[info.id];
      for (const game of info.games) assert.ok(registered.games.includes(game), `${game}`);
      assert.ok(info.limits.length > 0, 'published or conservative request limits');
      assert.match(info.baseUrl, /^https:\/\//);
      assert.ok(info.docsUrl, 'a docs URL');
      for (const parser of Object.keys(connector.parsers)) {
        const fixtures = loadFixtures(info.id).filter(
          (fixture) => !isPlanFixture(fixture) && fixture.request.kind === parser,
        );
        assert.ok(fixtures.length > 0, `a fixture for the ${parser} parser`);
      }
      assert.ok(loadFixtures(info.id).some(isPlanFixture), 'a plan fixture');
    });
  }
});

describe('live connectors: every fixture through the real parse path', () => {
  let catalogs: Partial<Record<Game, Catalog>>;
  before(() => {
    catalogs = fullCatalogs();
  });
  for (const connector of LIVE_CONNECTORS) {
    for (const fixture of loadFixtures(connector.info.id)) {
      test(`${fixture.file}: ${fixture.description}`, () => {
        if (isPlanFixture(fixture)) assertPlanFixture(connector, fixture);
        else assertResponseFixture(connector, fixture, catalogs);
      });
    }
  }
});
