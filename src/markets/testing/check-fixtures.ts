/**
 * Assertions behind the shared connector fixture test (`src/markets/connectors.test.ts`):
 * a response fixture's body through the connector's real parser gives exactly the expected
 * observations, rejections (by reason, and detail fragment when given), follow-up requests and
 * remembered facts, and every observed name resolves in our catalog unless the fixture lists
 * it as unknown; a plan fixture's context gives exactly the expected requests.
 */
import assert from 'node:assert/strict';
import type { Catalog } from '../../catalog/catalog.ts';
import type { Game } from '../../domain/games.ts';
import { resolveItem } from '../../catalog/resolve-item.ts';
import type { Connector } from '../connector.ts';
import type { PlanFixture, ResponseFixture } from './fixtures.ts';

export function assertResponseFixture(
  connector: Connector,
  fixture: ResponseFixture,
  catalogs: Partial<Record<Game, Catalog>>,
): void {
  const where = fixture.file;
  const parser = connector.parsers[fixture.request.kind];
  assert.ok(parser, `${where}: no parser for kind ${fixture.request.kind}`);
  const result = parser(fixture.response.body, {
    game: fixture.request.game,
    now: Date.parse(fixture.now),
    request: fixture.request,
  });
  assert.deepEqual(result.observations, fixture.expected.observations, `${where}: observations`);
  assert.deepEqual(
    result.rejected.map((rejection) => rejection.reason),
    fixture.expected.rejected.map((rejection) => rejection.reason),
    `${where}: rejection reasons (${JSON.stringify(result.rejected)})`,
  );
  fixture.expected.rejected.forEach((expected, index) => {
    if (expected.detail === undefined) return;
    assert.ok(
      result.rejected[index]!.detail.includes(expected.detail),
      `${where}: rejection ${index} detail "${result.rejected[index]!.detail}" lacks "${expected.detail}"`,
    );
  });
  assert.deepEqual(result.next ?? [], fixture.expected.next ?? [], `${where}: next requests`);
  assert.deepEqual(result.remember ?? {}, fixture.expected.remember ?? {}, `${where}: remember`);
  assert.equal(result.failure?.kind, fixture.expected.failure?.kind, `${where}: failure kind`);
  const detail = fixture.expected.failure?.detail;
  if (detail !== undefined) {
    assert.ok(
      result.failure?.detail.includes(detail),
      `${where}: failure detail lacks "${detail}"`,
    );
  }
  const catalog = catalogs[fixture.request.game];
  assert.ok(catalog, `${where}: no catalog for ${fixture.request.game}`);
  const unknown = [
    ...new Set(
      result.observations
        .map((observation) => observation.item)
        .filter((name) => !resolveItem(catalog, name)),
    ),
  ];
  assert.deepEqual(
    unknown.sort(),
    [...(fixture.expected.unknownItems ?? [])].sort(),
    `${where}: names not in the catalog`,
  );
}

export function assertPlanFixture(connector: Connector, fixture: PlanFixture): void {
  const requests = connector.requests({
    game: fixture.plan.game,
    now: Date.parse(fixture.plan.now),
    credentials: fixture.plan.credentials ?? {},
    priorities: fixture.plan.priorities ?? [],
    memory: new Map(Object.entries(fixture.plan.memory ?? {})),
  });
  assert.deepEqual(requests, fixture.expected.requests, `${fixture.file}: requests`);
}
