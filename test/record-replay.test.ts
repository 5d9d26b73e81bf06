/**
 * Record and replay end to end: `pricing serve --source live --record DIR` against loopback
 * stand-ins (credentials set, so keyed requests carry secrets), then `pricing replay DIR` into a
 * fresh data dir. The recording holds no secret, and a server on the replayed data dir answers
 * pricing, NBBO and history for the recorded items exactly like a server on the recording
 * run's own data dir (ingest and calculation times and age-decayed confidences aside).
 * Both `replay` commands run in the test's process (runInProcess): the servers are the binary.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MINUTE } from '../src/domain/clock.ts';
import type { MarketId } from '../src/domain/markets.ts';
import { servedFixtures } from '../src/markets/testing/fixtures.ts';
import { startStandInSet, type StandInSet } from '../src/markets/testing/stand-in-set.ts';
import { CATALOG_CUT, childEnv, runInProcess, startServer, tempDataDir } from './cli-helpers.ts';

const MARKETS: MarketId[] = ['csdeals', 'skinport', 'csfloat', 'waxpeer'];
const SECRETS = {
  PRICING_CSFLOAT_API_KEY: 'csfloat-secret-key-4711',
  PRICING_WAXPEER_API_KEY: 'waxpeer-secret-key-4712',
};
const PATHS = [
  '/v1/pricing/AK-47%20%7C%20Redline%20(Field-Tested)',
  '/v1/nbbo?market_hash_name=AK-47%20%7C%20Redline%20(Field-Tested)',
  '/v1/pricing/AK-47%20%7C%20Redline%20(Field-Tested)/history?interval=HOUR_1',
  '/v1/pricing/AK-47%20%7C%20Redline%20(Field-Tested)/history/markets?interval=HOUR_1',
  '/v2/pricing/Tempered%20AK47?game=rust',
  '/v2/nbbo?game=rust&market_hash_name=Tempered%20AK47',
];
/**
 * Times of our own processing, which a replay cannot and need not reproduce, and confidences,
 * which decay with the data's age at the moment of the query (the two servers answer a minute
 * apart).
 */
const OWN_TIMES =
  /^(calculatedAt|calculated_at|ingestedAt|ingested_at|ingestLatencyMs|ingest_latency_ms|measuredAt|measured_at|confidence|executableConfidence)$/;

/** Hang guard only: two servers booting at once beside other work took over four minutes. */
const START_GIVE_UP_MS = 600_000;

function withoutOwnTimes(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutOwnTimes);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !OWN_TIMES.test(key))
      .map(([key, inner]) => [key, withoutOwnTimes(inner)]),
  );
}

async function answers(dataDir: string, env: NodeJS.ProcessEnv): Promise<unknown[]> {
  const server = await startServer(['--source', 'none', ...CATALOG_CUT, '--data', dataDir], {
    env,
    timeoutMs: START_GIVE_UP_MS,
  });
  try {
    const key = readFileSync(join(dataDir, 'demo-key.txt'), 'utf8').trim();
    const bodies = [];
    for (const path of PATHS) {
      const response = await fetch(`${server.baseUrl}${path}`, {
        headers: { Authorization: `ApiKey ${key}` },
      });
      assert.equal(response.status, 200, `${path}: ${await response.clone().text()}`);
      bodies.push(withoutOwnTimes(await response.json()));
    }
    return bodies;
  } finally {
    await server.stop();
  }
}

describe('serve --record, then replay into a fresh data dir', () => {
  const dir = tempDataDir();
  const recording = join(dir, 'recording');
  const liveData = join(dir, 'live');
  const replayData = join(dir, 'replayed');
  const offsetFile = join(dir, 'clock-offset');
  let set: StandInSet;
  let env: NodeJS.ProcessEnv;

  before(async () => {
    set = await startStandInSet(MARKETS);
    const marketsFile = join(dir, 'markets.json');
    set.writeMarketsFile(marketsFile, 10);
    const latest = Math.max(
      ...MARKETS.flatMap((market) => servedFixtures(market).map((f) => Date.parse(f.now))),
    );
    writeFileSync(offsetFile, String(latest + 10 * MINUTE - Date.now()));
    env = childEnv({ ...SECRETS, PRICING_CLOCK_OFFSET_FILE: offsetFile });
    const server = await startServer(
      [
        '--source',
        'live',
        '--markets',
        marketsFile,
        ...CATALOG_CUT,
        '--data',
        liveData,
        '--record',
        recording,
      ],
      { env, timeoutMs: START_GIVE_UP_MS },
    );
    try {
      const seen = async () => {
        const response = await fetch(`${server.baseUrl}/v1/markets/health`);
        const rows = (await response.json()) as { id: string; lastEventAt: string | null }[];
        return MARKETS.every((market) => rows.find((row) => row.id === market)?.lastEventAt);
      };
      // A hang guard only: the listening line comes before the ingest thread is up, which took
      // three minutes beside other work.
      const deadline = performance.now() + 300_000;
      while (!(await seen())) {
        assert.ok(performance.now() < deadline, `markets not polled in time:\n${server.output()}`);
        await new Promise((resolve) => setTimeout(resolve, 1_100));
      }
    } finally {
      assert.equal(await server.stop('SIGTERM'), 0);
    }
  });
  after(async () => {
    await set?.close();
  });

  test('the recording holds each market’s answers and never a secret', () => {
    const files = readdirSync(recording);
    assert.ok(
      files.some((name) => /^recording-\d{6}\.ndjson$/.test(name)),
      files.join(', '),
    );
    const text = files.map((name) => readFileSync(join(recording, name), 'utf8')).join('');
    for (const secret of Object.values(SECRETS)) assert.ok(!text.includes(secret), secret);
    const polls = text
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line))
      .filter((line) => line.type === 'poll');
    for (const market of MARKETS) {
      assert.ok(
        polls.some((poll) => poll.market === market && poll.exchanges.length > 0),
        market,
      );
    }
    const keyed = polls.flatMap((poll) => poll.exchanges).filter((e) => /[?&]api=/.test(e.line));
    assert.ok(keyed.length > 0, 'a waxpeer request with its key in the query was recorded');
    for (const exchange of keyed) assert.match(exchange.line, /api=%5Bredacted%5D/);
    assert.ok(text.includes('"type":"fx"'), 'the rates in force are recorded');
  });

  test('replayed into a fresh data dir, pricing, NBBO and history answer the same', async () => {
    const replay = await runInProcess(['replay', recording, '--data', replayData], env);
    assert.equal(replay.code, 0, replay.stderr);
    assert.match(replay.stdout + replay.stderr, /polls replayed/);
    const [recorded, replayed] = await Promise.all([
      answers(liveData, env),
      answers(replayData, env),
    ]);
    for (const [index, path] of PATHS.entries()) {
      assert.deepEqual(replayed[index], recorded[index], path);
    }
  });

  test('--to-fixture writes the newest answers as connector fixtures', async () => {
    const out = join(dir, 'fixtures');
    const args = ['replay', recording, '--to-fixture', out, '--market', 'csdeals'];
    const result = await runInProcess(args, env);
    assert.equal(result.code, 0, result.stderr);
    const files = readdirSync(out);
    assert.ok(files.length > 0 && files.every((name) => name.startsWith('recorded-csdeals-')));
    const fixture = JSON.parse(readFileSync(join(out, files[0]!), 'utf8'));
    assert.equal(typeof fixture.now, 'string');
    assert.ok(fixture.request.kind && fixture.response.body !== undefined);
    assert.ok(Array.isArray(fixture.expected.observations));
  });
});
