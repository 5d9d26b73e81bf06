/**
 * Failover of the scaled-out ingest: two `--role ingest` processes (simulator) share one
 * PostgreSQL schema and one Redis prefix; once the first holds every lease and the standby is
 * up, the first is killed (SIGKILL). Prints the time until the standby holds every lease, until
 * the first new prices are committed, the markets fetched 30 / 60 / 120 s after the kill, and
 * duplicate polls (see closePolls). The lease period is the baseline of the ratios.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { MARKET_INFO } from '../src/markets/registry.ts';
import type { MarketId } from '../src/domain/markets.ts';
import { spawnServer, type ChildServer, PRICING_BIN } from './harness.ts';

const LEASE_MS = 15_000;
const CHECKPOINTS_S = [30, 60, 120];
const SIM_ITEMS = 2_000;

interface FetchRow {
  market: MarketId;
  game: string;
  started_at: string;
  ok: boolean;
}

function startIngest(env: NodeJS.ProcessEnv): Promise<ChildServer> {
  const data = mkdtempSync(join(tmpdir(), 'pricing-failover-'));
  const args = [PRICING_BIN, 'serve', '--role', 'ingest', '--data', data];
  args.push('--sim-items', String(SIM_ITEMS), '--backfill-days', '0');
  return spawnServer(args, 240_000, env, /ingest running as (\S+)/);
}

const seconds = (ms: number | null) => (ms === null ? 'never' : `${(ms / 1000).toFixed(1)} s`);

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

async function leaseHolders(redis: Redis, prefix: string): Promise<Map<string, string | null>> {
  const keys = (await redis.keys(`${prefix}lease:*`)).filter(
    (key) => !key.endsWith(':fence') && !key.endsWith(':backfill'),
  );
  const values = keys.length > 0 ? await redis.mget(...keys) : [];
  return new Map(keys.map((key, i) => [key, values[i] ?? null]));
}

export async function benchFailover(databaseUrl?: string, redisUrl?: string): Promise<void> {
  if (!databaseUrl || !redisUrl) {
    return console.log('failover: skipped (DATABASE_URL and REDIS_URL needed)');
  }
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
    PRICING_LEASE_MS: String(LEASE_MS),
    LOG_LEVEL: 'warn',
  };
  const children: ChildServer[] = [];
  try {
    const active = await startIngest(env);
    children.push(active);
    const standby = await startIngest(env);
    children.push(standby);
    // spawnServer hands back the ready line's capture: here the lease owner.
    const standbyOwner = standby.url;
    const markets = (await leaseHolders(redis, prefix)).size;
    console.log(
      `failover: ${markets} markets (simulator, ${SIM_ITEMS} items), lease ${LEASE_MS / 1000} s, ` +
        `load average ${loadavg()[0]!.toFixed(1)} (2 cores) before the kill`,
    );
    active.child.kill('SIGKILL');
    const killedAt = Date.now();
    let leasesAt: number | null = null;
    let pricesAt: number | null = null;
    const fetched: string[] = [];
    const deadline = killedAt + CHECKPOINTS_S.at(-1)! * 1000;
    let checkpoint = 0;
    while (Date.now() < deadline + 6_000 && checkpoint < CHECKPOINTS_S.length) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      const now = Date.now();
      if (leasesAt === null) {
        const holders = [...(await leaseHolders(redis, prefix)).values()];
        if (holders.length === markets && holders.every((owner) => owner === standbyOwner)) {
          leasesAt = now;
        }
      }
      if (pricesAt === null) {
        const newest = await db.query<{ at: string | null }>(
          `SELECT max(ingested_at) AS at FROM ${schema}.side_snapshots`,
        );
        if (Number(newest.rows[0]?.at ?? 0) > killedAt) pricesAt = now;
      }
      // Fetch records are flushed every 5 s: read each checkpoint 6 s late, counting by start time.
      if (now >= killedAt + CHECKPOINTS_S[checkpoint]! * 1000 + 6_000) {
        const upTo = killedAt + CHECKPOINTS_S[checkpoint]! * 1000;
        const count = await db.query<{ n: string }>(
          `SELECT count(DISTINCT market) AS n FROM ${schema}.fetch_records
           WHERE ok AND started_at >= $1 AND started_at < $2`,
          [killedAt, upTo],
        );
        fetched.push(`${CHECKPOINTS_S[checkpoint]} s: ${count.rows[0]!.n} of ${markets}`);
        checkpoint += 1;
      }
    }
    const rows = await db.query<FetchRow>(
      `SELECT market, game, started_at, ok FROM ${schema}.fetch_records ORDER BY started_at`,
    );
    const leaseMs = leasesAt === null ? null : leasesAt - killedAt;
    const pricesMs = pricesAt === null ? null : pricesAt - killedAt;
    console.log(
      `failover: leases ${seconds(leaseMs)} after the kill (${ratio(leaseMs)} lease periods); ` +
        `first new prices ${seconds(pricesMs)} after the kill ` +
        `(${seconds(pricesMs === null || leaseMs === null ? null : pricesMs - leaseMs)} after the leases)`,
    );
    console.log(`failover: markets fetched after ${fetched.join(', ')}`);
    const close = closePolls(rows.rows, killedAt);
    console.log(
      `failover: duplicate polls ${close.duplicates} (of ${rows.rows.filter((row) => row.ok).length} ` +
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

function ratio(ms: number | null): string {
  return ms === null ? '-' : (ms / LEASE_MS).toFixed(2);
}
