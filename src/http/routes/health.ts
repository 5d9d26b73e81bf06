/**
 * Keyless GET /v1/markets/health (cs2) and /v2/markets/health?game=: a bare array of health
 * rows, one per market polled for the game. Limited per client IP; no quota headers.
 */
import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { App } from '../app-type.ts';
import type { BookViews } from '../book-views.ts';
import { readMarketHealth } from '../market-health-rows.ts';
import type { AppDeps } from '../deps.ts';
import { healthGate } from '../plugins/health-limit.ts';
import { errorResponses, GameQuery } from '../schemas/common.ts';
import { MarketHealthRows } from '../schemas/status.ts';

const description =
  'No key. status: live when the last successful fetch is within 2 cadences of the market, ' +
  'warn within 6, else stale. healthBars: 48 half-hour buckets, most recent last ' +
  '(2 live, 1 degraded, 0 down, null unknown). About 60 requests a minute per IP.';

export function healthRoutes(app: App, deps: AppDeps, views: BookViews): void {
  const rows = (request: FastifyRequest) =>
    readMarketHealth(deps, views, request.game, deps.clock.now()).rows;

  const ERRORS = errorResponses(400, 429, 500);
  app.get(
    '/v1/markets/health',
    {
      onRequest: healthGate(deps, { fixed: 'cs2' }),
      schema: {
        tags: ['health'],
        summary: 'Market health (cs2)',
        description,
        response: { 200: MarketHealthRows, ...ERRORS },
      },
    },
    async (request) => rows(request),
  );
  app.get(
    '/v2/markets/health',
    {
      onRequest: healthGate(deps, 'query'),
      schema: {
        tags: ['health'],
        summary: 'Market health (game-scoped)',
        description,
        querystring: Type.Object({ game: GameQuery }),
        response: { 200: MarketHealthRows, ...ERRORS },
      },
    },
    async (request) => rows(request),
  );
}
