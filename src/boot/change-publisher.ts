/**
 * The sink the ingest side hands committed batches to when changes travel between processes:
 * each batch is split per game and published on the ChangeBus, without waiting (ingest never
 * blocks on Redis). A failed publish is logged once per outage; the bus's sequence numbers
 * make subscribers notice the missing event and reload from the store. `flush()` waits for
 * the publishes still in flight (before closing the bus).
 */
import type { ChangeBus } from '../events/change-bus.ts';
import { GAMES, type Game } from '../domain/games.ts';
import type { IngestBatch } from '../domain/quote.ts';

export interface PublisherLogger {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

export interface ChangePublisher {
  apply(batch: IngestBatch): void;
  flush(): Promise<void>;
}

/** One batch per game present in `batch` (a cycle's batch has one game; an import chunk may not). */
export function batchesByGame(batch: IngestBatch): { game: Game; batch: IngestBatch }[] {
  const out: { game: Game; batch: IngestBatch }[] = [];
  for (const game of GAMES) {
    const part: IngestBatch = {
      sides: batch.sides.filter((side) => side.game === game),
      sales: batch.sales.filter((sale) => sale.game === game),
      listings: batch.listings.filter((listing) => listing.game === game),
    };
    if (part.sides.length + part.sales.length + part.listings.length > 0) {
      out.push({ game, batch: part });
    }
  }
  return out;
}

export function createChangePublisher(
  bus: ChangeBus,
  origin: string,
  logger: PublisherLogger,
): ChangePublisher {
  const inFlight = new Set<Promise<void>>();
  let failing = false;

  const publishOne = (game: Game, batch: IngestBatch) => {
    const sent = bus.publish({ game, batch, origin }).then(
      () => {
        if (!failing) return;
        failing = false;
        logger.info({}, 'change events publish again');
      },
      (error: unknown) => {
        if (failing) return;
        failing = true;
        logger.warn(
          { err: error },
          'change event not published: API processes reload from the store when they notice',
        );
      },
    );
    inFlight.add(sent);
    void sent.finally(() => inFlight.delete(sent));
  };

  return {
    apply(batch) {
      for (const part of batchesByGame(batch)) publishOne(part.game, part.batch);
    },
    async flush() {
      await Promise.all([...inFlight]);
    },
  };
}
