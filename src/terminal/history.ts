/**
 * The terminal's history answers: a fixed window ending now at one stored tier, read through
 * the API's own history pipeline (parseHistoryQuery, the 10,000-point bound, sliced bodies) so
 * the points are byte for byte those of /v2/pricing/:name/history[/markets].
 */
import type { FastifyReply } from 'fastify';
import type { CatalogItem } from '../domain/item.ts';
import type { AppDeps } from '../http/deps.ts';
import { sendHistory, sendHistoryByMarket } from '../http/history-body.ts';
import { checkPointBound, parseHistoryQuery } from '../http/history-params.ts';
import { historyStore } from '../http/routes/history.ts';
import type { Interval } from '../pricing/rollup-buckets.ts';
import type { TerminalInterval } from './schemas.ts';

/** The API interval that selects each stored tier. */
const API_INTERVAL: Readonly<Record<TerminalInterval, Interval>> = {
  '10m': 'MINUTE_15',
  '1h': 'HOUR_1',
  '1d': 'DAY_1',
};

export interface TerminalHistoryRequest {
  item: CatalogItem;
  form: 'aggregate' | 'markets';
  window: number;
  interval: TerminalInterval;
  listingType: string;
}

export async function sendTerminalHistory(
  deps: AppDeps,
  reply: FastifyReply,
  request: TerminalHistoryRequest,
): Promise<FastifyReply> {
  const store = historyStore(deps);
  const now = deps.clock.now();
  const parsed = parseHistoryQuery(
    {
      from: new Date(now - request.window).toISOString(),
      to: new Date(now).toISOString(),
      listingType: request.listingType,
      interval: API_INTERVAL[request.interval],
    },
    now,
  );
  const { item } = request;
  const envelope = {
    canonicalItemId: item.id,
    name: item.marketHashName,
    listingType: parsed.listingType,
    salesWindow: parsed.salesWindow,
    effectiveInterval: parsed.tier,
  };
  if (request.form === 'aggregate') {
    checkPointBound(parsed, 1);
    return sendHistory(
      reply,
      store,
      envelope,
      { game: item.game, itemId: item.id, market: null },
      parsed,
    );
  }
  const markets = await store.historyMarkets(item.game, item.id);
  checkPointBound(parsed, markets.length);
  const series = markets.map((market) => ({
    key: { game: item.game, itemId: item.id, market },
    readable: true,
  }));
  return sendHistoryByMarket(reply, store, envelope, series, parsed);
}
