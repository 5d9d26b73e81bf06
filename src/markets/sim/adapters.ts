/**
 * The simulated markets: one MarketAdapter per market id. `fetchRaw` builds the answers of one
 * complete poll in the upstream's own shape, each with the request it answers (the market
 * folder's writer, from the price model at `ctx.now`: same seed and time, same answers), or
 * throws a retryable AdapterError while the market is down; `parse` reads every answer with
 * the market's live parser for its kind, the function `serve --source live` calls. Latency is
 * reported by `conditionAt`; `fetchRaw` only waits when `maxDelayMs` > 0 (capped there), so
 * tests and manual clocks never sleep.
 */
import type { Clock } from '../../domain/clock.ts';
import { MARKET_IDS, type MarketId } from '../../domain/markets.ts';
import { safeParse } from '../live/poll-body.ts';
import {
  AdapterError,
  type FetchContext,
  type MarketAdapter,
  type MarketInfo,
  type ParseResult,
  SimulatedFailure,
} from '../market-adapter.ts';
import type { MarketDefinition } from '../market-definition.ts';
import { MARKET_DEFINITIONS } from '../registry.ts';
import { conditionAt, type SimCondition } from './faults.ts';
import type { SimPage } from './sim-market.ts';
import { buildSnapshot } from './snapshot.ts';
import { createSimWorld, type SimWorld, type SimWorldOptions } from './world.ts';

export interface SimAdapterOptions extends SimWorldOptions {
  /** Only used when a fetch context carries no usable `now`. */
  clock?: Clock;
  /** Real wait per fetch, at most this many ms (default 0: no waiting). */
  maxDelayMs?: number;
  /** Markets to build (default: all). */
  markets?: readonly MarketId[];
}

function wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** What one simulated poll received: the answers, each beside the request it answers. */
export interface SimPoll {
  pages: SimPage[];
}

/** Every answer through the market's parser for its kind, as one poll's result. */
export function parseSimPoll(
  market: MarketDefinition,
  poll: SimPoll,
  ctx: FetchContext,
): ParseResult {
  const result: ParseResult = { observations: [], rejected: [] };
  for (const { request, body } of poll.pages) {
    const parser = market.parsers[request.kind];
    const page = parser
      ? safeParse(() => parser(body, { game: ctx.game, now: ctx.now, request }))
      : {
          observations: [],
          rejected: [{ reason: 'malformed' as const, detail: `no ${request.kind} parser` }],
        };
    for (const observation of page.observations) result.observations.push(observation);
    for (const rejection of page.rejected) result.rejected.push(rejection);
  }
  return result;
}

export class SimMarketAdapter implements MarketAdapter {
  readonly info: MarketInfo;
  private readonly market: MarketDefinition;

  constructor(
    private readonly world: SimWorld,
    market: MarketId,
    private readonly options: Pick<SimAdapterOptions, 'clock' | 'maxDelayMs'> = {},
  ) {
    this.market = MARKET_DEFINITIONS[market];
    this.info = this.market.info;
  }

  /** How the market behaves at `now`: up (with latency and data lag) or down. */
  condition(now: number): SimCondition {
    return conditionAt(this.world, this.info.id, now);
  }

  async fetchRaw(ctx: FetchContext): Promise<SimPoll> {
    const market = this.info.id;
    if (!this.info.games.includes(ctx.game)) {
      throw new AdapterError(`${market} does not list ${ctx.game} items`, false);
    }
    const now = Number.isFinite(ctx.now) ? ctx.now : (this.options.clock?.now() ?? NaN);
    if (!Number.isFinite(now)) throw new AdapterError(`${market}: no time to simulate`, false);
    const condition = this.condition(now);
    await wait(Math.min(condition.latencyMs, this.options.maxDelayMs ?? 0), ctx.signal);
    if (ctx.signal?.aborted) throw new AdapterError(`${market}: request aborted`, true, 'network');
    if (condition.kind === 'down') {
      const reason = `${market}: ${condition.reason} (simulated)`;
      throw new SimulatedFailure(reason, true, condition.failure);
    }
    const snapshot = buildSnapshot(this.world, market, ctx.game, now, condition.lagMs);
    return { pages: this.market.sim.pages(snapshot) };
  }

  parse(body: unknown, ctx: FetchContext): ParseResult {
    return parseSimPoll(this.market, body as SimPoll, ctx);
  }
}

/** One simulated adapter per market (all 21 by default), sharing one deterministic world. */
export function createSimAdapters(options: SimAdapterOptions): SimMarketAdapter[] {
  const world = createSimWorld(options);
  const markets = options.markets ?? MARKET_IDS;
  return markets.map((market) => new SimMarketAdapter(world, market, options));
}
