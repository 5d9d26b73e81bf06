/**
 * `pricing markets check` end to end: the CLI against loopback stand-ins of five markets,
 * one healthy (csdeals), one behind a Cloudflare challenge (tradeit-store), one refusing its
 * credential with 401 (csfloat), one hanging past the timeout (lootfarm) and one answering in
 * another currency than it was asked for (skinport). Exit codes and the report are asserted.
 * The checks run in-process (runInProcess: one catalog build for the file instead of one per
 * run); the usage error runs through the binary.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MINUTE } from '../src/domain/clock.ts';
import { parseEcbDaily } from '../src/markets/ecb/fx-ecb.ts';
import { convertToUsdCents } from '../src/ingest/fx.ts';
import { ECB_SAMPLE } from '../src/markets/ecb/test-ecb.ts';
import type { MarketId } from '../src/domain/markets.ts';
import { servedFixtures } from '../src/markets/testing/fixtures.ts';
import { startStandInSet, type StandInSet } from '../src/markets/testing/stand-in-set.ts';
import { BIN, childEnv, runInProcess, tempDataDir } from './cli-helpers.ts';

const MARKETS: MarketId[] = ['csdeals', 'tradeit-store', 'csfloat', 'lootfarm', 'skinport'];
const REDLINE = 'AK-47 | Redline (Field-Tested)';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The command through the CLI's dispatch in this process (the catalogs it loads are built once
 * for the file), with its own environment and captured output.
 */
function runCheck(args: string[], env: NodeJS.ProcessEnv): Promise<Run> {
  return runInProcess(['markets', 'check', ...args], env);
}

/** The real binary in a child process, awaited without blocking the stand-ins in this one. */
function runBinary(args: string[], env: NodeJS.ProcessEnv): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'markets', 'check', ...args], { env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

function fixtureOf(market: MarketId, file: string) {
  const fixture = servedFixtures(market).find((one) => one.file.endsWith(file));
  assert.ok(fixture, `${market} ${file}`);
  return fixture;
}

describe('pricing markets check against loopback stand-ins', () => {
  const dir = tempDataDir();
  const marketsFile = join(dir, 'markets.json');
  const offsetFile = join(dir, 'clock-offset');
  let set: StandInSet;
  let env: NodeJS.ProcessEnv;

  before(async () => {
    set = await startStandInSet(MARKETS);
    set.writeMarketsFile(marketsFile);
    const latest = Math.max(
      ...MARKETS.flatMap((market) => servedFixtures(market).map((f) => Date.parse(f.now))),
    );
    writeFileSync(offsetFile, String(latest + 10 * MINUTE - Date.now()));
    env = childEnv({ PRICING_CLOCK_OFFSET_FILE: offsetFile, PRICING_CSFLOAT_API_KEY: 'refused' });
    set.markets.get('tradeit-store')!.behave({ kind: 'challenge' });
    set.markets.get('csfloat')!.behave({
      kind: 'status',
      status: 401,
      body: '{"code":1,"message":"invalid api key"}',
    });
    set.markets.get('lootfarm')!.behave({ kind: 'hang' });
    const items = fixtureOf('skinport', 'items.json');
    const inDollars = (items.response.body as Record<string, unknown>[]).map((row) => ({
      ...row,
      currency: 'USD',
    }));
    set.markets.get('skinport')!.override(items.file, inDollars);
  });
  after(async () => {
    await set?.close();
  });

  test('one failed market makes exit 3; the report names each failure kind', async () => {
    const run = await runCheck(['--markets', marketsFile, '--timeout', '1', '--json'], env);
    assert.equal(run.code, 3, run.stderr);
    const report = JSON.parse(run.stdout);
    assert.equal(report.passed, false);
    assert.deepEqual(
      report.markets.map((m: { market: string }) => m.market).sort(),
      [...MARKETS].sort(),
    );
    const row = (market: string, game = 'cs2') =>
      report.markets
        .find((m: { market: string }) => m.market === market)
        .games.find((g: { game: string }) => g.game === game);

    for (const game of ['cs2', 'rust']) {
      const healthy = row('csdeals', game);
      assert.equal(healthy.passed, true, JSON.stringify(healthy));
      assert.equal(healthy.reachable, true);
      assert.equal(healthy.status, 200);
      assert.equal(healthy.failure, null);
      assert.ok(healthy.parsed > 0 && healthy.latencyMs >= 0);
    }
    const sample = row('csdeals').sample;
    assert.equal(sample.item, REDLINE);
    assert.equal(sample.side, 'ask');
    const expected = fixtureOf('csdeals', 'lowest-prices.json').expected!.observations!.find(
      (o: { item: string; side?: string }) => o.item === REDLINE && o.side === 'ask',
    ) as { levels: { price: number }[]; scale: number; currency: string };
    const converted = convertToUsdCents(
      expected.levels[0]!.price,
      expected.scale,
      expected.currency,
      parseEcbDaily(ECB_SAMPLE),
    );
    assert.deepEqual(converted, { ok: true, cents: sample.priceCents });

    const blocked = row('tradeit-store');
    assert.deepEqual([blocked.passed, blocked.reachable, blocked.status], [false, true, 403]);
    assert.equal(blocked.failure.kind, 'blocked');

    const refused = row('csfloat');
    assert.deepEqual([refused.passed, refused.status, refused.failure.kind], [false, 401, 'auth']);

    const hung = row('lootfarm');
    assert.deepEqual([hung.passed, hung.reachable, hung.status], [false, false, null]);
    assert.equal(hung.failure.kind, 'timeout');

    const dollars = row('skinport');
    assert.equal(dollars.passed, false);
    assert.equal(dollars.failure.kind, 'parse');
    assert.match(dollars.failure.detail, /currency/);
    assert.ok(dollars.rejected > 0);
  });

  test('the text report has one line per market and game, then the failures', async () => {
    const run = await runCheck(['--markets', marketsFile, '--timeout', '1'], env);
    assert.equal(run.code, 3, run.stderr);
    assert.match(run.stdout, /^csdeals\s+cs2\s+pass\s+-\s+yes\s+200\s/m);
    assert.match(run.stdout, /^tradeit-store\s+cs2\s+FAIL\s+blocked\s+yes\s+403\s/m);
    assert.match(run.stdout, /^lootfarm\s+cs2\s+FAIL\s+timeout\s+no\s+-\s/m);
    assert.match(run.stdout, /^ {2}csfloat cs2 auth: .*HTTP 401/m);
    assert.match(run.stdout, /^1 of 5 markets passed$/m);
  });

  test('--market checks only the named markets: the healthy one alone exits 0', async () => {
    const run = await runCheck(['--markets', marketsFile, '--market', 'csdeals'], env);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.match(run.stdout, /^1 of 1 markets passed$/m);
    assert.doesNotMatch(run.stdout, /skinport/);
  });

  test('a market without a live connector is a usage error (exit 2) of the binary', async () => {
    const run = await runBinary(['--markets', marketsFile, '--market', 'skindeck'], env);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /--market skindeck: no live connector/);
  });
});
