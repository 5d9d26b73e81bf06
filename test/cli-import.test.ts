/**
 * `pricing import`: exit 3 when lines were rejected (the good ones are stored), rejected lines
 * reported in line order, and a repeated import says nothing was new. The first import goes
 * through the real binary, the others in-process through the binary's dispatch.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, runInProcess, tempDataDir } from './cli-helpers.ts';

const ITEM = 'AK-47 | Redline (Field-Tested)';
const AT = '2026-11-20T10:00:00Z';

const book = (market: string, side: string, price: number, item = ITEM) =>
  JSON.stringify({
    kind: 'book',
    game: 'cs2',
    market,
    item,
    side,
    currency: 'USD',
    fetchedAt: AT,
    levels: [{ price, quantity: 1, orders: 1 }],
    listingCount: 1,
  });
const sale = (price: number) =>
  JSON.stringify({
    kind: 'sale',
    game: 'cs2',
    market: 'csfloat',
    item: ITEM,
    price,
    currency: 'USD',
    soldAt: AT,
  });

function file(dir: string, name: string, lines: string[]): string {
  const path = join(dir, name);
  writeFileSync(path, lines.join('\n') + '\n');
  return path;
}

describe('pricing import', () => {
  const dir = tempDataDir();

  test('rejected lines: exit 3, listed in line order, the good lines stored', () => {
    const path = file(dir, 'mixed.ndjson', [
      book('skinport', 'ask', 1400),
      book('csfloat', 'ask', 1500, 'No Such Item'),
      'not json',
      sale(-5),
      '{"kind":"book"}',
      sale(1500),
    ]);
    const result = runCli(['import', path, '--data', dir]);
    assert.equal(result.code, 3, result.stderr);
    const lines = [...result.stderr.matchAll(/^line (\d+):/gm)].map((match) => Number(match[1]));
    assert.deepEqual(lines, [2, 3, 4, 5]);
    assert.match(result.stdout, /6 lines, 2 accepted, 4 rejected/);
    assert.match(
      result.stdout,
      /stored 1 book sides \(1 new\), 1 sales \(1 new\), 0 listings \(0 new\)/,
    );
  });

  test('the same file again stores nothing new and says so', async () => {
    const result = await runInProcess(['import', join(dir, 'mixed.ndjson'), '--data', dir]);
    assert.equal(result.code, 3);
    assert.match(
      result.stdout,
      /stored 1 book sides \(0 new\), 1 sales \(0 new\), 0 listings \(0 new\)/,
    );
  });

  test('a clean file exits 0; only the side not stored before is new', async () => {
    const path = file(dir, 'clean.ndjson', [
      book('skinport', 'ask', 1400),
      book('skinport', 'bid', 1300),
    ]);
    const result = await runInProcess(['import', path, '--data', dir]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /stored 2 book sides \(1 new\)/);
  });
});
