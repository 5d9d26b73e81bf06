/**
 * The simulated markets: one MarketAdapter per market id. `fetchRaw` builds the market's body
 * in its real wire format from the price model at `ctx.now` (same seed and time, same body),
 * or throws a retryable AdapterError while the market is down; `parse` is the market's real
 * parser. Latency is reported by `conditionAt`; `fetchRaw` only waits when `maxDelayMs` > 0
 * (capped there), so tests and manual clocks never sleep.
 */
import type { Clock } from '../../domain/clock.ts';
import { MARKET_IDS, type MarketId } from '../../domain/markets.ts';
import { FORMAT_BY_MARKET, parseMarketBody } from '../formats/index.ts';
import {
  AdapterError,
  type FetchContext,
  type MarketAdapter,
  type MarketInfo,
  type ParseResult,
  SimulatedFailure,
} from '../market-adapter.ts';
import { MARKET_INFO } from '../registry.ts';
import { conditionAt, type SimCondition } from './faults.ts';
import { buildSnapshot } from './snapshot.ts';
import { createSimWorld, type SimWorld, type SimWorldOptions } from './world.ts';
import { WRITERS } from './writers.ts';

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

export class SimMarketAdapter implements MarketAdapter {
  readonly info: MarketInfo;

  constructor(
    private readonly world: SimWorld,
    market: MarketId,
    private readonly options: Pick<SimAdapterOptions, 'clock' | 'maxDelayMs'> = {},
  ) {
    this.info = MARKET_INFO[market];
  }

  /** How the market behaves at `now`: up (with latency and data lag) or down. */
  condition(now: number): SimCondition {
    return conditionAt(this.world, this.info.id, now);
  }

  async fetchRaw(ctx: FetchContext): Promise<unknown> {
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
    return WRITERS[FORMAT_BY_MARKET[market]](snapshot);
  }

  parse(body: unknown, ctx: FetchContext): ParseResult {
    return parseMarketBody(this.info.id, body, ctx);
  }
}

/** One simulated adapter per market (all 21 by default), sharing one deterministic world. */
export function createSimAdapters(options: SimAdapterOptions): SimMarketAdapter[] {
  const world = createSimWorld(options);
  const markets = options.markets ?? MARKET_IDS;
  return markets.map((market) => new SimMarketAdapter(world, market, options));
}
