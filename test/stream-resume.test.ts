/**
 * A price stream begun on one API process resumes on another (issue 29 point 1): two API
 * processes of the real CLI on one PostgreSQL schema and one Redis prefix, quotes written by
 * `pricing import` (published on the change bus; run in the test's process, like the admin
 * commands). A witness stream stays on process A
 * throughout; the stream under test reads from A, disconnects, and resumes on B with
 * Last-Event-ID: what B sends must be exactly the witness's events after that id (same ids,
 * types and data), and both go on receiving the same events. Open streams per account are
 * counted in Redis across both processes, under the account's own limit (issue 29 point 1).
 * Skipped unless DATABASE_URL and REDIS_URL are set.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { openSse, type SseClient, type SseMessage } from '../src/http/stream/sse-test-client.ts';
import { adminQuery, dropSchema } from '../src/store/postgres/test-support.ts';
import { deleteKeys } from '../src/events/redis-test-support.ts';
import {
  CATALOG_CUT,
  childEnv,
  runInProcess,
  startServer,
  tempDataDir,
  type RunningServer,
} from './cli-helpers.ts';

const DATABASE_URL = process.env.DATABASE_URL ?? '';
const REDIS_URL = process.env.REDIS_URL ?? '';
const needsBoth = DATABASE_URL && REDIS_URL ? {} : { skip: 'DATABASE_URL and REDIS_URL not set' };

const run = randomBytes(5).toString('hex');
const SCHEMA = `sr_${run}`;
const PREFIX = `test:sr:${run}:`;
const REDLINE = 'AK-47 | Redline (Field-Tested)';
const ASIIMOV = 'AWP | Asiimov (Field-Tested)';
const QUERY = `/v1/stream?items=${[REDLINE, ASIIMOV].map(encodeURIComponent).join(',')}&events=quote,nbbo`;
/** Hang guard for events to cross the bus (a busy machine is slow, not wrong). */
const ARRIVES_WITHIN_MS = 60_000;

const book = (market: string, side: string, price: number, item: string, at: number) =>
  JSON.stringify({
    kind: 'book',
    game: 'cs2',
    market,
    item,
    side,
    currency: 'USD',
    fetchedAt: new Date(at).toISOString(),
    levels: [{ price, quantity: 1, orders: 1 }],
    listingCount: 1,
  });

async function waitUntil(client: SseClient, what: string, done: (all: SseMessage[]) => boolean) {
  const deadline = performance.now() + ARRIVES_WITHIN_MS;
  while (!done(client.messages)) {
    if (performance.now() > deadline)
      throw new Error(`${what}: not within ${ARRIVES_WITHIN_MS} ms`);
    await Promise.race([
      client.waitFor(client.messages.length + 1),
      new Promise((resolve) => setTimeout(resolve, 200)),
    ]);
  }
}

const withMarket = (market: string) => (all: SseMessage[]) =>
  all.some((message) => (message.data as { market?: string }).market === market);

describe('a stream resumes on another API process (PostgreSQL + Redis)', needsBoth, () => {
  const env = childEnv({
    DATABASE_URL,
    REDIS_URL,
    PRICING_PG_SCHEMA: SCHEMA,
    PRICING_REDIS_PREFIX: PREFIX,
    LOG_LEVEL: 'warn',
  });
  const dir = tempDataDir();
  let apis: RunningServer[] = [];
  let key = '';
  let imports = 0;

  /** Admin commands and imports run in this process: the servers are what is under test. */
  const cli = async (...args: string[]) => {
    const { code, stdout, stderr } = await runInProcess(args, env);
    assert.equal(code, 0, `pricing ${args.join(' ')}: ${stderr}`);
    return stdout.trim().split('\n');
  };
  /** Writes one quote per line through `pricing import` (store, then the change bus). */
  const quotes = async (...lines: [string, string, number, string][]) => {
    imports += 1;
    const at = Date.now();
    const path = join(dir, `quotes-${imports}.ndjson`);
    writeFileSync(path, lines.map((line) => book(...line, at)).join('\n') + '\n');
    await cli('import', path);
  };
  const stream = (api: RunningServer, headers: Record<string, string> = {}) =>
    openSse(`${api.baseUrl}${QUERY}`, { Authorization: `ApiKey ${key}`, ...headers });

  before(async () => {
    await adminQuery(`CREATE SCHEMA ${SCHEMA}`);
    apis = await Promise.all([
      startServer(['--role', 'api', ...CATALOG_CUT, '--data', tempDataDir()], { env }),
      startServer(['--role', 'api', ...CATALOG_CUT, '--data', tempDataDir()], { env }),
    ]);
    await cli('accounts', 'create', 'streams', '--plan', 'enterprise');
    key = (await cli('keys', 'create', '--account', 'streams')).at(-1)!;
  });

  after(async () => {
    for (const api of apis) await api.stop('SIGKILL');
    const redis = new Redis(REDIS_URL || 'redis://127.0.0.1:6379');
    await deleteKeys(redis, PREFIX).catch(() => 0);
    redis.disconnect();
    await dropSchema(SCHEMA);
  });

  test('disconnect from A, resume on B with Last-Event-ID: exactly the continuation', async () => {
    const [a, b] = apis as [RunningServer, RunningServer];
    const witness = await stream(a);
    const first = await stream(a);
    await Promise.all([witness.waitFor(1), first.waitFor(1)]);

    await quotes(['csfloat', 'ask', 1500, REDLINE], ['skinport', 'ask', 9000, ASIIMOV]);
    await waitUntil(first, 'the first quotes on A', withMarket('skinport'));
    const lastSeen = first.messages.at(-1)!.id!;
    first.close();
    await first.ended;

    await quotes(['skinport', 'ask', 1400, REDLINE], ['csfloat', 'bid', 1300, REDLINE]);
    await quotes(['buff163', 'ask', 8800, ASIIMOV]);
    await waitUntil(witness, 'the later quotes on A', withMarket('buff163'));

    const resumed = await stream(b, { 'Last-Event-ID': String(lastSeen) });
    assert.equal(resumed.status, 200);
    const missed = witness.messages.filter((message) => message.id! > lastSeen);
    assert.ok(missed.length >= 5, `missed ${missed.length} events`);
    await waitUntil(resumed, 'the replay on B', (all) => all.length >= missed.length);
    assert.deepEqual(resumed.messages, missed, 'B replays exactly what A sent after the id');

    const live = witness.messages.length + 2;
    await quotes(['csfloat', 'ask', 1200, REDLINE]);
    await waitUntil(witness, 'the live quote on A', (all) => all.length >= live);
    await waitUntil(resumed, 'the live quote on B', (all) => all.length >= missed.length + 2);
    assert.deepEqual(
      resumed.messages,
      witness.messages.filter((message) => message.id! > lastSeen),
      'A and B go on with the same events under the same ids',
    );
    const ids = resumed.messages.map((message) => message.id!);
    assert.ok(ids.every((id, index) => index === 0 || id > ids[index - 1]!));
    witness.close();
    resumed.close();
  });

  test('open streams are counted across both processes, under the limit set for the account', async () => {
    const [a, b] = apis as [RunningServer, RunningServer];
    await cli('accounts', 'create', 'two-streams', '--plan', 'developer', '--streams', '2');
    const own = (await cli('keys', 'create', '--account', 'two-streams')).at(-1)!;
    const open = (api: RunningServer) =>
      openSse(`${api.baseUrl}/v1/stream?items=${encodeURIComponent(REDLINE)}`, {
        Authorization: `ApiKey ${own}`,
      });
    const onA = await open(a);
    const onB = await open(b);
    assert.deepEqual([onA.status, onB.status], [200, 200]);
    const third = await open(b);
    await third.ended;
    assert.equal(third.status, 429);
    assert.match(JSON.parse(third.body).message, /At most 2 open streams/);
    onA.close();
    await onA.ended;
    const deadline = performance.now() + ARRIVES_WITHIN_MS;
    for (;;) {
      const again = await open(b);
      if (again.status === 200) {
        again.close();
        break;
      }
      await again.ended;
      assert.ok(performance.now() < deadline, 'the slot closed on A was not freed');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    onB.close();
  });
});
