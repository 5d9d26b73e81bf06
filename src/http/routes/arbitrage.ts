/**
 * GET /v1/arbitrage/opportunities (cs2 only, Pro and up): buy at one market's best ask, sell
 * into another's best cash-withdrawable bid, net of both markets' fees.
 * Candidates: the `candidateLimit` quoted cs2 items quoted on the most markets (ties in catalog
 * order). The ranking is computed once per book version and cached, so a request evaluates only
 * its candidates. The ranking counts every market; `markets` then restricts the legs.
 */
import { Type } from '@sinclair/typebox';
import type { App } from '../app-type.ts';
import type { BookViews } from '../book-views.ts';
import type { AppDeps } from '../deps.ts';
import { parseMarkets } from '../params.ts';
import { keyGate } from '../plugins/key-gate.ts';
import { ArbitrageOpportunities } from '../schemas/arbitrage.ts';
import { errorResponses, KEY_GATED_ERRORS, MarketsQuery } from '../schemas/common.ts';
import type { Book, MarketSides } from '../../book/book.ts';
import type { CatalogItem } from '../../domain/item.ts';
import { DEFAULT_FEE_MODEL } from '../../markets/fees.ts';
import {
  DEFAULT_ARBITRAGE_OPTIONS,
  findOpportunities,
  type ArbitrageSort,
} from '../../pricing/arbitrage.ts';

export const DEFAULT_CANDIDATE_LIMIT = 500;
export const MIN_CANDIDATE_LIMIT = 50;
export const MAX_CANDIDATE_LIMIT = 2000;

const Query = Type.Object({
  limit: Type.Integer({ minimum: 1, maximum: 100, default: DEFAULT_ARBITRAGE_OPTIONS.limit }),
  minSpreadBps: Type.Integer({
    minimum: 0,
    maximum: 1_000_000,
    default: DEFAULT_ARBITRAGE_OPTIONS.minSpreadBps,
    description: 'Minimum gross spread, in bps of the buy price.',
  }),
  minNotionalCents: Type.Integer({
    minimum: 0,
    maximum: 1_000_000_000,
    default: DEFAULT_ARBITRAGE_OPTIONS.minNotionalCents,
    description: 'Minimum capital at the buy price for the tradable quantity.',
  }),
  sort: Type.Unsafe<ArbitrageSort>({
    type: 'string',
    enum: ['estimatedNetCents', 'spreadBps'],
    default: DEFAULT_ARBITRAGE_OPTIONS.sort,
    description: 'Ranking key, descending (ties: the other key).',
  }),
  markets: Type.Optional(MarketsQuery),
  candidateLimit: Type.Integer({
    minimum: MIN_CANDIDATE_LIMIT,
    maximum: MAX_CANDIDATE_LIMIT,
    default: DEFAULT_CANDIDATE_LIMIT,
    description: 'How many items to evaluate: those quoted on the most markets.',
  }),
});

function quotedMarketCount(sides: readonly MarketSides[]): number {
  let count = 0;
  for (const entry of sides) {
    if ((entry.ask?.levels.length ?? 0) > 0 || (entry.bid?.levels.length ?? 0) > 0) count += 1;
  }
  return count;
}

/** Quoted cs2 items, most markets first; recomputed only when the book version moves. */
export class CandidateRanking {
  private held: { version: number; items: CatalogItem[] } | null = null;

  constructor(
    private readonly book: Book,
    private readonly views: BookViews,
  ) {}

  top(limit: number): CatalogItem[] {
    const version = this.book.version('cs2');
    if (!this.held || this.held.version !== version) {
      this.held = { version, items: this.rank() };
    }
    return this.held.items.slice(0, limit);
  }

  private rank(): CatalogItem[] {
    const quoted = this.views.quotedItems('cs2');
    const counts = quoted.map((item) => quotedMarketCount(this.book.sides('cs2', item.id)));
    const order = quoted.map((_, index) => index);
    order.sort((a, b) => counts[b]! - counts[a]! || a - b);
    return order.map((index) => quoted[index]!);
  }
}

export function arbitrageRoutes(app: App, deps: AppDeps, views: BookViews): void {
  const feeModel = deps.feeModel ?? DEFAULT_FEE_MODEL;
  const ranking = new CandidateRanking(deps.book, views);
  app.get(
    '/v1/arbitrage/opportunities',
    {
      onRequest: keyGate(deps, 'arbitrage', { fixed: 'cs2' }),
      schema: {
        tags: ['arbitrage'],
        summary: 'Cross-market arbitrage opportunities (cs2)',
        description:
          'Best buy-ask / sell-bid pair per candidate item, net of buyer fee, seller fee and one withdrawal fee. Stale legs are flagged (isStale and a stale_quote feeNote), never silent.',
        security: [{ ApiKey: [] }],
        querystring: Query,
        response: { 200: ArbitrageOpportunities, ...errorResponses(...KEY_GATED_ERRORS) },
      },
    },
    async (request) => {
      const query = request.query;
      const selection = parseMarkets(query.markets, 'cs2');
      const candidates = ranking.top(query.candidateLimit).map((item) => ({
        item,
        sides: deps.book.sides('cs2', item.id),
      }));
      const options = {
        limit: query.limit,
        minSpreadBps: query.minSpreadBps,
        minNotionalCents: query.minNotionalCents,
        // Type.Unsafe reaches the handler as unknown; ajv has checked the enum.
        sort: query.sort as ArbitrageSort,
        markets: selection.markets,
      };
      return findOpportunities(candidates, options, feeModel, deps.clock.now());
    },
  );
}
