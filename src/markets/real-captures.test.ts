/**
 * Fixtures made from responses real marketplaces sent (doc examples, recorded answers in
 * permissively licensed repositories): each names its source, date and licence, runs through
 * its connector's real parser with expectations worked out by hand, and docs/markets.md's
 * "verified on" column says which connectors have one ("none found" for the others).
 */
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Catalog } from '../catalog/catalog.ts';
import { fullCatalogs } from '../catalog/test-catalogs.ts';
import type { Game } from '../domain/games.ts';
import { LIVE_CONNECTORS } from './connectors.ts';
import { assertResponseFixture } from './testing/check-fixtures.ts';
import { captureFixtures } from './testing/fixtures.ts';

/** The "verified on" cell of each market's row in docs/markets.md. */
function verifiedOn(): Map<string, string> {
  const page = readFileSync(join(import.meta.dirname, '..', '..', 'docs', 'markets.md'), 'utf8');
  const start = page.indexOf('\n## The markets\n');
  const table = page.slice(start, page.indexOf('\n\n', page.indexOf('| market |', start)));
  const lines = table.split('\n').filter((line) => line.startsWith('|'));
  const cellsOf = (line: string) =>
    line
      .split('|')
      .map((cell) => cell.trim())
      .slice(1, -1);
  const column = cellsOf(lines[0]!).indexOf('verified on');
  assert.ok(column > 0, 'docs/markets.md: the market table has a "verified on" column');
  const cells = new Map<string, string>();
  for (const line of lines.filter((row) => row.startsWith('| `'))) {
    const row = cellsOf(line);
    cells.set(row[0]!.replaceAll('`', ''), row[column]!);
  }
  return cells;
}

describe('real-capture fixtures', () => {
  let catalogs: Partial<Record<Game, Catalog>>;
  before(() => {
    catalogs = fullCatalogs();
  });
  const cells = verifiedOn();

  for (const connector of LIVE_CONNECTORS) {
    const { id } = connector.info;
    const captures = captureFixtures(id);
    test(`${id}: the "verified on" cell matches its real-capture fixtures`, () => {
      const cell = cells.get(id);
      assert.ok(cell, `${id}: a row`);
      if (captures.length === 0) assert.equal(cell, 'none found');
      else assert.notEqual(cell, 'none found');
    });
    for (const fixture of captures) {
      test(`${fixture.file}: provenance, and the real parser reads it as worked out by hand`, () => {
        const capture = fixture.capture!;
        assert.ok(capture.source.length > 10, 'source');
        assert.match(capture.retrieved, /^\d{4}-\d{2}-\d{2}$/, 'retrieved date');
        assert.ok(capture.licence.length > 0, 'licence');
        if (capture.commit !== undefined) assert.match(capture.commit, /^[0-9a-f]{40}$/);
        assertResponseFixture(connector, fixture, catalogs);
      });
    }
  }
});
