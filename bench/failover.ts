/**
 * Failover of the scaled-out ingest: two `--role ingest` processes (simulator) share one
 * PostgreSQL schema and one Redis prefix; once the first holds every lease and the standby is
 * up, the first is killed (SIGKILL). Prints the time until the standby holds its first and
 * every lease, until its first fetch starts and the first new prices are committed, the markets
 * fetched 30 / 60 / 120 s after the kill, whether each market was polled and fetched
 * successfully within two of its cadences (a simulated outage may keep a market failing; it
 * waits for that, up to `--wait-s`, default 300), and duplicate polls (see closePolls). The
 * lease period is the baseline of the ratios. `npm run bench -- failover --lease-ms 5000`.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import pg from 'pg';
import { ServeConfigSchema } from '../src/config.ts';
import { MARKET_INFO } from '../src/markets/registry.ts';
import type { MarketId } from '../src/domain/markets.ts';
import { spawnServer, type ChildServer, PRICING_BIN } from './harness.ts';

const CHECKPOINTS_S = [30, 60, 120];
const DEFAULT_LEASE_MS: number = ServeConfigSchema.properties.leaseMs.default;
const SIM_ITEMS = 2_000;
/** Fetch records are written every 5 s: a figure up to a time is read this much later. */
const RECORDS_LAG_MS = 6_000;

interface FetchRow {
  market: MarketId;
  game: string;
  started_at: string;
  ok: boolean;
  detail: string | null;
}

function startIngest(env: NodeJS.ProcessEnv): Promise<ChildServer> {
  const data = mkdtempSync(join(tmpdir(), 'pricing-failover-'));
  const args = [PRICING_BIN, 'serve', '--role', 'ingest', '--data', data];
  args.push('--sim-items', String(SIM_ITEMS), '--backfill-days', '0');
  return spawnServer(args, 240_000, env, /ingest running as (\S+)/);
}

const seconds = (ms: number | null) => (ms === null ? 'never' : `${(ms / 1000).toFixed(1)} s`);
const after = (ms: number | null, from: number) => (ms === null ? null : ms - from);

/**
 * Pairs of successful fetches of one (market, game) closer than 0.9 cadence: `duplicates` when
 * both started on the same side of the kill (two live pollers, or the standby polling twice),
 * `handovers` when they straddle it (the standby cannot know when the dead holder last polled).
 */
export function closePolls(rows: readonly FetchRow[], killedAt: number) {
  const last = new Map<string, number>();
  const counts = { duplicates: 0, handovers: 0 };
  for (const row of rows) {
    if (!row.ok) continue;
    const key = `${row.market}:${row.game}`;
    const at = Number(row.started_at);
    const previous = last.get(key);
    if (previous !== undefined && at - previous < 0.9 * MARKET_INFO[row.market].cadenceMs) {
      if (previous < killedAt && at >= killedAt) counts.handovers += 1;
      else counts.duplicates += 1;
    }
    last.set(key, at);
  }
  return counts;
}

export interface MarketResume {
  market: MarketId;
  cadenceMs: number;
  /** From the kill to the start of the market's first fetch after it. */
  polledMs: number | null;
  /** From the kill to the start of the market's first successful fetch after it. */
  resumedMs: number | null;
  /** Why its latest fetch failed, when none succeeded. */
  failure: string | null;
}

/** Per market, its first successful fetch after the kill (rows in start order). */
export function marketResumes(
  rows: readonly FetchRow[],
  markets: readonly MarketId[],
  killedAt: number,
): MarketResume[] {
  return markets.map((market) => {
    const since = rows.filter((row) => row.market === market && Number(row.started_at) >= killedAt);
    const first = since[0];
    const success = since.find((row) => row.ok);
    return {
      market,
      cadenceMs: MARKET_INFO[market].cadenceMs,
      polledMs: first ? Number(first.started_at) - killedAt : null,
      resumedMs: success ? Number(success.started_at) - killedAt : null,
      failure: success ? null : (since.at(-1)?.detail ?? null),
    };
  });
}

const within = (ms: number | null, resume: MarketResume) =>
  ms !== null && ms <= 2 * resume.cadenceMs;

/** Whether every market succeeded, or polled and can no longer within two cadences. */
const settled = (resumes: readonly MarketResume[], sinceKillMs: number) =>
  resumes.every(
    (r) =>
      r.resumedMs !== null ||
      (r.polledMs !== null && sinceKillMs > 2 * r.cadenceMs + RECORDS_LAG_MS),
  );

function printResumes(resumes: readonly MarketResume[], waitedMs: number): void {
  const polled = resumes.filter((r) => within(r.polledMs, r)).length;
  const resumed = resumes.filter((r) => within(r.resumedMs, r)).length;
  console.log(
    `failover: within two of its cadences after the kill, ${polled} of ${resumes.length} markets ` +
      `were polled and ${resumed} fetched successfully (bench watched ${seconds(waitedMs)})`,
  );
  for (const r of resumes) {
    const cadences = (ms: number | null) =>
      ms === null ? '' : ` (${(ms / r.cadenceMs).toFixed(2)} cadences)`;
    const success =
      r.resumedMs !== null
        ? `first success ${seconds(r.resumedMs)}${cadences(r.resumedMs)}`
        : `no success yet: ${r.failure ?? 'not polled'}`;
    console.log(
      `  ${r.market.padEnd(14)} cadence ${`${r.cadenceMs / 60_000} min`.padEnd(8)} ` +
        `first poll ${seconds(r.polledMs)}${cadences(r.polledMs)}, ${success}`,
    );
  }
}

async function leaseHolders(redis: Redis, prefix: string): Promise<Map<string, string | null>> {
  const keys = (await redis.keys(`${prefix}lease:*`)).filter(
    (key) => !key.endsWith(':fence') && !key.endsWith(':backfill'),
  );
  const values = keys.length > 0 ? await redis.mget(...keys) : [];
  return new Map(keys.map((key, i) => [key, values[i] ?? null]));
}

function benchOptions(argv: readonly string[]) {
  const { values } = parseArgs({
    args: [...argv],
    options: { 'lease-ms': { type: 'string' }, 'wait-s': { type: 'string' } },
  });
  return {
    leaseMs: Number(values['lease-ms'] ?? DEFAULT_LEASE_MS),
    waitMs: Number(values['wait-s'] ?? 300) * 1000,
  };
}

interface Watch {
  firstLeaseAt: number | null;
  leasesAt: number | null;
  pricesAt: number | null;
  fetched: string[];
}

export async function benchFailover(
  databaseUrl?: string,
  redisUrl?: string,
  argv: readonly string[] = [],
): Promise<void> {
  if (!databaseUrl || !redisUrl) {
    return console.log('failover: skipped (DATABASE_URL and REDIS_URL needed)');
  }
  const { leaseMs, waitMs } = benchOptions(argv);
  const run = randomBytes(4).toString('hex');
  const schema = `bench_fo_${run}`;
  const prefix = `bench:fo:${run}:`;
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  await db.query(`CREATE SCHEMA ${schema}`);
  const redis = new Redis(redisUrl);
  const env = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    PRICING_PG_SCHEMA: schema,
    PRICING_REDIS_PREFIX: prefix,
    PRICING_LEASE_MS: String(leaseMs),
    LOG_LEVEL: 'warn',
  };
  const children: ChildServer[] = [];
  const fetchRows = async () =>
    (
      await db.query<FetchRow>(
        `SELECT market, game, started_at, ok, detail FROM ${schema}.fetch_records
         ORDER BY started_at`,
      )
    ).rows;
  try {
    const active = await startIngest(env);
    children.push(active);
    const standby = await startIngest(env);
    children.push(standby);
    // spawnServer hands back the ready line's capture: here the lease owner.
    const standbyOwner = standby.url;
    const leaseKeys = [...(await leaseHolders(redis, prefix)).keys()];
    const markets = leaseKeys.map((key) => key.slice(`${prefix}lease:`.length) as MarketId);
    console.log(
      `failover: ${markets.length} markets (simulator, ${SIM_ITEMS} items), lease ${leaseMs / 1000} s, ` +
        `load average ${loadavg()[0]!.toFixed(1)} (2 cores) before the kill`,
    );
    active.child.kill('SIGKILL');
    const killedAt = Date.now();
    const watch: Watch = { firstLeaseAt: null, leasesAt: null, pricesAt: null, fetched: [] };
    let checkpoint = 0;
    let resumes = marketResumes([], markets, killedAt);
    let readAt = 0;
    const lastCheckpointMs = CHECKPOINTS_S.at(-1)! * 1000 + RECORDS_LAG_MS;
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      const now = Date.now();
      if (watch.leasesAt === null) {
        const holders = [...(await leaseHolders(redis, prefix)).values()];
        const mine = holders.filter((owner) => owner === standbyOwner).length;
        if (mine > 0) watch.firstLeaseAt ??= now;
        if (mine === markets.length) watch.leasesAt = now;
      }
      if (watch.pricesAt === null) {
        const newest = await db.query<{ at: string | null }>(
          `SELECT max(ingested_at) AS at FROM ${schema}.side_snapshots`,
        );
        if (Number(newest.rows[0]?.at ?? 0) > killedAt) watch.pricesAt = now;
      }
      const checkpointMs = (CHECKPOINTS_S[checkpoint] ?? Infinity) * 1000;
      if (now >= killedAt + checkpointMs + RECORDS_LAG_MS) {
        const count = await db.query<{ n: string }>(
          `SELECT count(DISTINCT market) AS n FROM ${schema}.fetch_records
           WHERE ok AND started_at >= $1 AND started_at < $2`,
          [killedAt, killedAt + checkpointMs],
        );
        watch.fetched.push(
          `${CHECKPOINTS_S[checkpoint]} s: ${count.rows[0]!.n} of ${markets.length}`,
        );
        checkpoint += 1;
      }
      if (now - readAt >= 5_000) {
        readAt = now;
        resumes = marketResumes(await fetchRows(), markets, killedAt);
      }
      const sinceKill = now - killedAt;
      if (sinceKill >= lastCheckpointMs && (settled(resumes, sinceKill) || sinceKill >= waitMs))
        break;
    }
    const rows = await fetchRows();
    const firstFetch = rows.find((row) => Number(row.started_at) >= killedAt);
    const fromKill = (at: number | null) => after(at, killedAt);
    const pricesMs = fromKill(watch.pricesAt);
    const firstLeaseMs = fromKill(watch.firstLeaseAt);
    console.log(
      `failover: first lease ${seconds(firstLeaseMs)}, every lease ${seconds(fromKill(watch.leasesAt))} ` +
        `after the kill (${ratio(fromKill(watch.leasesAt), leaseMs)} lease periods); first fetch ` +
        `started ${seconds(firstFetch ? fromKill(Number(firstFetch.started_at)) : null)}; first new ` +
        `prices ${seconds(pricesMs)} after the kill (${ratio(pricesMs, leaseMs)} lease periods, ` +
        `${seconds(pricesMs === null || firstLeaseMs === null ? null : pricesMs - firstLeaseMs)} ` +
        `after the first lease)`,
    );
    console.log(`failover: markets fetched after ${watch.fetched.join(', ')}`);
    printResumes(marketResumes(rows, markets, killedAt), Date.now() - killedAt - RECORDS_LAG_MS);
    const close = closePolls(rows, killedAt);
    console.log(
      `failover: duplicate polls ${close.duplicates} (of ${rows.filter((row) => row.ok).length} ` +
        `successful fetches recorded); first standby polls sooner than a cadence after the dead ` +
        `holder's last: ${close.handovers}`,
    );
  } finally {
    for (const child of children) child.child.kill('SIGKILL');
    await db.query(`DROP SCHEMA ${schema} CASCADE`);
    await db.end();
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  }
}

function ratio(ms: number | null, leaseMs: number): string {
  return ms === null ? '-' : (ms / leaseMs).toFixed(2);
}
