/**
 * GET /v1/arbitrage/opportunities (cs2 only, Pro and up): buy at one market's best ask, sell
 * into another's best cash-withdrawable bid, net of both markets' fees.
 * Candidates: the `candidateLimit` quoted cs2 items quoted on the most markets (ties in catalog
 * order), read from the book index (kept current as batches apply). The ranking counts every
 * market; `markets` then restricts the legs. Only candidates where a sellable bid is above an
 * ask (read from the index's top prices) are priced pair by pair: no other can qualify.
 */
import { Type } from '@sinclair/typebox';
import type { App } from '../app-type.ts';
import type { BookViews } from '../book-views.ts';
import type { AppDeps } from '../deps.ts';
import { parseMarkets } from '../params.ts';
import { keyGate } from '../plugins/key-gate.ts';
import { ArbitrageOpportunities } from '../schemas/arbitrage.ts';
import { errorResponses, KEY_GATED_ERRORS, MarketsQuery } from '../schemas/common.ts';
import { DEFAULT_FEE_MODEL } from '../../markets/fees.ts';
import {
  arbitrageSellMarkets,
  DEFAULT_ARBITRAGE_OPTIONS,
  DEFAULT_CANDIDATE_LIMIT,
  findOpportunities,
  MAX_CANDIDATE_LIMIT,
  MAX_OPPORTUNITIES,
  MIN_CANDIDATE_LIMIT,
  type ArbitrageSort,
} from '../../pricing/arbitrage.ts';

const Query = Type.Object({
  limit: Type.Integer({
    minimum: 1,
    maximum: MAX_OPPORTUNITIES,
    default: DEFAULT_ARBITRAGE_OPTIONS.limit,
  }),
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

export function arbitrageRoutes(app: App, deps: AppDeps, views: BookViews): void {
  const feeModel = deps.feeModel ?? DEFAULT_FEE_MODEL;
  const sellMarkets = arbitrageSellMarkets(feeModel);
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
      const { evaluated, crossed } = views.crossedCandidates(
        'cs2',
        query.candidateLimit,
        selection.markets,
        sellMarkets.filter((market) => selection.markets?.has(market) ?? true),
      );
      const candidates = crossed.map((item) => ({ item, sides: deps.book.sides('cs2', item.id) }));
      const options = {
        limit: query.limit,
        minSpreadBps: query.minSpreadBps,
        minNotionalCents: query.minNotionalCents,
        // Type.Unsafe reaches the handler as unknown; ajv has checked the enum.
        sort: query.sort as ArbitrageSort,
        markets: selection.markets,
      };
      const found = findOpportunities(candidates, options, feeModel, deps.clock.now());
      return { ...found, totalCandidates: evaluated };
    },
  );
}
