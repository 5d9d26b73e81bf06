/**
 * A small ingest process for the lease failover test: the production lease keeper, lease
 * connection options, ingest runner and PostgreSQL store (writes under the lease fence), polling
 * a loopback market server whose answer names the market. Settings come from the environment;
 * it prints one JSON line per event (ready, lease gained/lost, a poll's start, finished cycle)
 * on stdout.
 */
import { systemClock } from '../../src/domain/clock.ts';
import type { MarketId } from '../../src/domain/markets.ts';
import { openRedis } from '../../src/events/redis-support.ts';
import { leaseConnectionOptions, leaseOwner } from '../../src/ingest/lease.ts';
import { createLeaseKeeper, redisLeases } from '../../src/ingest/lease-keeper.ts';
import { createIngestRunner } from '../../src/ingest/runner.ts';
import {
  askObservation,
  marketInfo,
  TEST_FX,
  testCatalogs,
} from '../../src/ingest/test-fixtures.ts';
import type { MarketAdapter } from '../../src/markets/market-adapter.ts';
import { createPostgresPriceStore } from '../../src/store/postgres/postgres-price-store.ts';

const env = process.env;
const markets = env.MARKETS!.split(',') as MarketId[];
const leaseMs = Number(env.LEASE_MS);
const cadenceMs = Number(env.CADENCE_MS);
const say = (event: object) => process.stdout.write(`${JSON.stringify(event)}\n`);

function loopbackAdapter(market: MarketId): MarketAdapter {
  return {
    info: marketInfo({ id: market, cadenceMs }),
    async fetchRaw() {
      const response = await fetch(`${env.MARKET_URL}/${market}`, {
        headers: { 'x-poller': String(process.pid) },
      });
      return response.json();
    },
    parse(body, ctx) {
      const price = (body as { price: number }).price;
      const levels = [{ price, quantity: 1, orders: 1 }];
      return {
        observations: [askObservation({ market, fetchedAt: ctx.now, levels })],
        rejected: [],
      };
    },
  };
}

const quiet = { info() {}, warn() {}, error() {} };
const redis = openRedis(env.REDIS_URL!, leaseConnectionOptions(leaseMs));
const store = createPostgresPriceStore({
  connectionString: env.DATABASE_URL!,
  schema: env.SCHEMA!,
});
await store.init();
const keeper = createLeaseKeeper({
  markets,
  lease: redisLeases({ redis, prefix: env.PREFIX!, ttlMs: leaseMs, owner: leaseOwner() }),
  ttlMs: leaseMs,
  clock: systemClock,
  onChange: (market, held) => say({ event: 'lease', market, held }),
});
const runner = createIngestRunner({
  adapters: markets.map(loopbackAdapter),
  catalogs: testCatalogs(),
  fx: TEST_FX,
  book: { apply() {} },
  store,
  fetchLog: { append() {} },
  clock: systemClock,
  logger: quiet,
  // A poll's start is written to the pipe as it is decided, before its request leaves.
  shouldPoll: (market) => {
    const holds = keeper.holds(market);
    if (holds) say({ event: 'poll', market });
    return holds;
  },
  fence: (market) => {
    const token = keeper.fence(market);
    return token === null ? null : { scope: market, token };
  },
  idleRecheckMs: 50,
  onCycle: (record) =>
    say({ event: 'cycle', market: record.market, ok: record.ok, detail: record.detail }),
});
await keeper.start();
runner.start();
say({ event: 'ready', held: keeper.held() });
setInterval(() => {}, 60_000);
