/**
 * The market table of docs/markets.md stays true: one row per live connector with its games, cadence and
 * credentials as the connector declares them, and one row naming every simulated-only market.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MARKET_IDS } from '../src/domain/markets.ts';
import { LIVE_CONNECTORS } from '../src/markets/connectors.ts';

function marketRows(): Map<string, string[]> {
  const page = readFileSync(join(import.meta.dirname, '..', 'docs', 'markets.md'), 'utf8');
  const start = page.indexOf('\n## The markets\n');
  assert.ok(start >= 0, 'docs/markets.md has a "The markets" section');
  const table = page.slice(start, page.indexOf('\n\n', page.indexOf('| market |', start)));
  const rows = new Map<string, string[]>();
  for (const line of table.split('\n').filter((row) => row.startsWith('| `'))) {
    const cells = line
      .split('|')
      .map((cell) => cell.trim())
      .slice(1, -1);
    rows.set(cells[0]!, cells);
  }
  return rows;
}

describe('docs/markets.md: the live market table', () => {
  const rows = marketRows();

  for (const { info } of LIVE_CONNECTORS) {
    test(`${info.id}: games, cadence and credentials as the connector declares`, () => {
      const cells = rows.get(`\`${info.id}\``);
      assert.ok(cells, 'a row');
      const [, games, , auth, cadence] = cells;
      assert.equal(games, info.games.join(', '));
      assert.equal(cadence, `${info.cadenceMs / 60_000} min`);
      for (const credential of info.credentials) {
        assert.ok(auth!.includes(credential.env), credential.env);
        assert.ok(
          auth!.includes(credential.required ? '(required)' : '(optional)'),
          credential.env,
        );
      }
      if (info.credentials.length === 0) assert.equal(auth, 'none');
    });
  }

  test('every market without a connector is listed as simulated only', () => {
    const live = new Set<string>(LIVE_CONNECTORS.map((connector) => connector.info.id));
    const simulated = MARKET_IDS.filter((id) => !live.has(id));
    const row = [...rows.entries()].find(([, cells]) =>
      cells.some((cell) => cell.includes('simulated only')),
    );
    assert.ok(row, 'a simulated-only row');
    assert.deepEqual(
      row[0]
        .split(',')
        .map((id) => id.trim().replaceAll('`', ''))
        .sort(),
      [...simulated].sort(),
    );
  });
});
