/**
 * `pricing replay DIR`: a recording fed through the ingest path `serve` uses (the market's
 * parsers → normalise → store commit → book), one cycle per recorded poll in the order written,
 * on a clock set to the recorded times (the poll's start, each answer's arrival, the poll's
 * end) and with the exchange rates that were in force, so the store ends up holding what the
 * recording service stored. Fetch records are stored too (health and latency reproduce).
 */
import type { Book } from '../../book/book.ts';
import type { Catalog } from '../../catalog/catalog.ts';
import { manualClock } from '../../domain/clock.ts';
import type { FxTable } from '../../domain/fx.ts';
import type { Game } from '../../domain/games.ts';
import { runCycle } from '../../ingest/cycle.ts';
import { FX_MAX_AGE_MS } from '../../ingest/fx-refresher.ts';
import type { Connector } from '../../markets/connector.ts';
import { LIVE_CONNECTORS } from '../../markets/connectors.ts';
import { HttpFailure } from '../../markets/http/market-http.ts';
import {
  addOutcome,
  finishPoll,
  parsePollBody,
  safeParse,
  type PollBody,
} from '../../markets/live/poll-body.ts';
import type { RecordedExchange, RecordedPoll } from '../../markets/live/recording.ts';
import { AdapterError, type MarketAdapter } from '../../markets/market-adapter.ts';
import type { PriceStore } from '../../store/price-store.ts';
import { readRecording } from './recording-files.ts';

export interface ReplayDeps {
  catalogs: Partial<Record<Game, Catalog>>;
  store: Pick<PriceStore, 'writeBatch' | 'recordFetches'>;
  book: Pick<Book, 'apply'>;
  /** The rates before the recording's first rates line (serve's built-in table). */
  fallbackFx: FxTable;
}

export interface ReplaySummary {
  polls: number;
  failedPolls: number;
  observations: number;
  sides: number;
  /** Polls of markets this version has no connector for. */
  skipped: number;
}

function outcomeOf(connector: Connector, exchange: RecordedExchange) {
  const { request, answer, failure } = exchange;
  if (answer) {
    const parser = connector.parsers[request.kind];
    if (!parser)
      return new HttpFailure('internal', `${connector.info.id}: no parser for ${request.kind}`);
    return safeParse(() => parser(answer.body, { game: request.game, now: answer.at, request }));
  }
  return new HttpFailure(
    failure?.kind ?? 'internal',
    failure?.message ?? 'no answer recorded',
    failure?.status ?? null,
  );
}

/** The recorded poll as the live adapter delivered it: re-parsed with today's parsers. */
export function replayedPollBody(connector: Connector, poll: RecordedPoll): PollBody {
  if (poll.failure && poll.exchanges.length === 0) {
    throw new AdapterError(poll.failure.message, poll.failure.kind !== 'auth', poll.failure.kind);
  }
  const body: PollBody = { pages: [], failures: [] };
  for (const exchange of poll.exchanges) {
    addOutcome(body, exchange.request, outcomeOf(connector, exchange));
  }
  return finishPoll(body);
}

export async function replayRecording(dir: string, deps: ReplayDeps): Promise<ReplaySummary> {
  const clock = manualClock(0);
  const connectors = new Map(LIVE_CONNECTORS.map((connector) => [connector.info.id, connector]));
  const summary: ReplaySummary = {
    polls: 0,
    failedPolls: 0,
    observations: 0,
    sides: 0,
    skipped: 0,
  };
  let fx = deps.fallbackFx;
  for (const line of readRecording(dir)) {
    if (line.type === 'fx') {
      fx = line.table;
      continue;
    }
    const connector = connectors.get(line.market);
    if (!connector) {
      summary.skipped += 1;
      continue;
    }
    const adapter: MarketAdapter = {
      info: connector.info,
      fetchRaw: async () => {
        clock.set(line.endedAt);
        return replayedPollBody(connector, line);
      },
      parse: (raw) => parsePollBody(raw as PollBody),
    };
    clock.set(line.startedAt);
    const outcome = await runCycle(adapter, line.game, {
      catalogs: deps.catalogs,
      fx: () => fx,
      fxMaxAgeMs: FX_MAX_AGE_MS,
      book: deps.book,
      store: deps.store,
      clock,
      onBookError: () => undefined,
    });
    await deps.store.recordFetches([outcome.record]);
    summary.polls += 1;
    if (!outcome.record.ok) summary.failedPolls += 1;
    summary.observations += outcome.record.observationCount;
    summary.sides += outcome.committed.sides;
  }
  return summary;
}
