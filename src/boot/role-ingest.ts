/**
 * Role `ingest`: polls the markets in-process (no API; with `metricsPort`, the operator metrics
 * listener with the ingest metrics), writes the shared PostgreSQL store and publishes every
 * committed batch on the Redis change bus. Each market is polled only while this process
 * holds its Redis lease (`<prefix>lease:<market>`, ttl `leaseMs`, renewed every ttl/3) and its
 * results are written under the lease's fencing token: a second ingest process is a hot
 * standby (pool warm, catalog loaded) that takes over within ttl + 1 s of the holder's last
 * renewal and polls the markets it gained within a second. Retention runs on a
 * process that holds at least one lease; the simulator backfill of an empty store runs under
 * its own lease, so two processes starting together backfill once, and a restart goes on after
 * the last chunk a killed one wrote.
 */
import type { Logger } from 'pino';
import { loadCatalogs } from '../catalog/index.ts';
import { createClosers } from './closers.ts';
import { startLearningWhenLive } from './schema-runtime.ts';
import type { ServeConfig } from '../config.ts';
import { MINUTE, type Clock } from '../domain/clock.ts';
import { MARKET_IDS } from '../domain/markets.ts';
import { createRedisChangeBus } from '../events/redis-change-bus.ts';
import { closeRedis, openRedis } from '../events/redis-support.ts';
import { createRedisLease, leaseConnectionOptions, leaseOwner } from '../ingest/lease.ts';
import { createLeaseKeeper, redisLeases } from '../ingest/lease-keeper.ts';
import { applyRetention, RETENTION_INTERVAL_MS } from '../ingest/retention.ts';
import type { PriceStore } from '../store/price-store.ts';
import { configuredBackfill } from './backfill.ts';
import { resumes, runPhase } from './band-resume.ts';
import { createChangePublisher, type ChangePublisher } from './change-publisher.ts';
import { marketPlan } from './market-plan.ts';
import { createServiceMetrics } from './metrics.ts';
import { bandToWrite } from './first-backfill.ts';
import { createSourceIngest } from './source-ingest.ts';
import { openIngestStore } from './stores.ts';
import type { Redis } from 'ioredis';

export interface IngestRole {
  owner: string;
  markets: number;
  /** The operator metrics URL, null without `metricsPort`. */
  metricsUrl: string | null;
  close(): Promise<void>;
}

const BACKFILL_LEASE_MS = 30 * MINUTE;

interface BackfillDeps {
  config: ServeConfig;
  clock: Clock;
  store: PriceStore;
  redis: Redis;
  owner: string;
  publisher: ChangePublisher;
  catalogs: ReturnType<typeof loadCatalogs>;
  logger: Logger;
}

/**
 * Writes the simulator backfill of an empty store, or what a stopped run left of one, under a
 * lease of its own: both phases, each chunk with its place (band-resume.ts).
 */
async function backfillOnce(deps: BackfillDeps): Promise<void> {
  const { config, store, clock } = deps;
  if ((await bandToWrite(config, store, clock)) === null) return;
  const lease = createRedisLease({
    redis: deps.redis,
    key: `${config.redisPrefix}lease:backfill`,
    ttlMs: BACKFILL_LEASE_MS,
    owner: deps.owner,
  });
  if ((await lease.acquire()) === null) {
    deps.logger.info({}, 'another ingest process is backfilling; skipping');
    return;
  }
  try {
    let place = await bandToWrite(config, store, clock);
    if (!place) return;
    if (resumes(place))
      deps.logger.info(place, 'resuming the unfinished backfill after the last chunk written');
    const options = await configuredBackfill(config, {
      catalogs: deps.catalogs,
      book: deps.publisher,
      store,
      clock,
      toMs: place.toMs,
    });
    while (place) place = (await runPhase(options, place))?.next ?? null;
  } finally {
    await lease.release();
  }
}

export async function startIngestRole(
  config: ServeConfig,
  clock: Clock,
  logger: Logger,
): Promise<IngestRole> {
  const redisUrl = config.redisUrl!;
  const closers = createClosers();
  const close = closers.close;
  try {
    const metrics = createServiceMetrics(config);
    const metricsUrl = metrics ? await metrics.listen() : null;
    if (metrics) closers.add(() => metrics.close());
    const ingestMetrics = metrics?.ingest();
    const { prices: store, history } = await openIngestStore(
      config,
      clock,
      (message) => logger.error({ message }, 'rollup fold failed'),
      closers,
    );
    const bus = createRedisChangeBus({
      url: redisUrl,
      prefix: config.redisPrefix,
      logger,
      clock,
    });
    closers.add(() => bus.close());
    const redis = openRedis(redisUrl, leaseConnectionOptions(config.leaseMs));
    closers.add(() => closeRedis(redis));
    const owner = leaseOwner();
    const publisher = createChangePublisher(bus, `ingest:${owner}`, logger);
    closers.add(() => publisher.flush());
    const learning = await startLearningWhenLive(config, clock, logger);
    if (learning) closers.add(() => learning.close());
    const catalogs = learning?.catalogs ?? loadCatalogs();
    if (config.source === 'sim') {
      await backfillOnce({ config, clock, store, redis, owner, publisher, catalogs, logger });
    }

    const plan = marketPlan(config);
    const markets = MARKET_IDS.filter((market) => plan.get(market)?.polled);
    const keeper = createLeaseKeeper({
      markets,
      lease: redisLeases({ redis, prefix: config.redisPrefix, ttlMs: config.leaseMs, owner }),
      ttlMs: config.leaseMs,
      clock,
      logger,
      onChange: (market, held) =>
        logger.info({ market, owner }, held ? 'lease gained' : 'lease lost'),
    });
    const ingest =
      markets.length === 0
        ? null
        : await createSourceIngest({
            config,
            catalogs,
            store,
            bucketHistory: history,
            sink: publisher,
            fetchLog: { append: () => {} },
            clock,
            logger,
            shouldPoll: (market) => keeper.holds(market),
            fence: (market) => {
              const token = keeper.fence(market);
              return token === null ? null : { scope: market, token };
            },
            ...(ingestMetrics ? { onCycle: ingestMetrics.noteCycle.bind(ingestMetrics) } : {}),
            ...(learning
              ? {
                  onUnmapped: (market, game, names) =>
                    void learning.learner.notice(market, game, names),
                }
              : {}),
          });
    await keeper.start();
    closers.add(() => keeper.stop());
    if (ingest) {
      ingest.runner.start();
      closers.add(() => ingest.close());
    }

    const retention = setInterval(() => {
      if (keeper.held().length === 0) return;
      applyRetention(store, clock.now()).catch((error: unknown) =>
        logger.error({ err: error }, 'retention failed'),
      );
    }, RETENTION_INTERVAL_MS);
    retention.unref();
    closers.add(() => clearInterval(retention));
    logger.info({ owner, held: keeper.held().length, markets: markets.length }, 'ingest started');
    return { owner, markets: markets.length, metricsUrl, close };
  } catch (error) {
    await close();
    throw error;
  }
}
