/**
 * GET /v1/recommendations/:marketHashName (cs2 only, snake_case): the suggested list price.
 * Unknown item → 404; a known item without quotes is a 200 with strategy `no_data` and
 * `suggested_price: null`. `markets` restricts the inputs; the best bid stays cash-only.
 */
import { Type } from '@sinclair/typebox';
import type { App } from '../app-type.ts';
import type { AppDeps } from '../deps.ts';
import { findItem, parseMarkets } from '../params.ts';
import { keyGate } from '../plugins/key-gate.ts';
import { errorResponses, KEY_GATED_ERRORS, MarketsQuery } from '../schemas/common.ts';
import { Recommendation } from '../schemas/recommendation.ts';
import { DEFAULT_FEE_MODEL } from '../../markets/fees.ts';
import { computeRecommendation } from '../../pricing/recommendation.ts';

export function recommendationsRoutes(app: App, deps: AppDeps): void {
  const feeModel = deps.feeModel ?? DEFAULT_FEE_MODEL;
  app.get(
    '/v1/recommendations/:marketHashName',
    {
      onRequest: keyGate(deps, 'recommendations', { fixed: 'cs2' }),
      schema: {
        tags: ['recommendations'],
        summary: 'Suggested list price (cs2)',
        description:
          'Suggested price with its strategy, confidence, liquidity score and unstable reasons. A null suggested_price is a valid answer.',
        security: [{ ApiKey: [] }],
        params: Type.Object({
          marketHashName: Type.String({
            description: 'URL-encoded market hash name or canonical id.',
          }),
        }),
        querystring: Type.Object({ markets: Type.Optional(MarketsQuery) }),
        response: { 200: Recommendation, ...errorResponses(...KEY_GATED_ERRORS) },
      },
    },
    async (request) => {
      const selection = parseMarkets(request.query.markets, 'cs2');
      const item = findItem(deps.catalogs.cs2, request.params.marketHashName);
      const sides = deps.book.sides('cs2', item.id);
      return computeRecommendation(item, sides, selection, feeModel, deps.clock.now());
    },
  );
}
