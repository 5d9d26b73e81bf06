/**
 * Every polled market's health row for one game at `now`, with the fetch records and last
 * successes behind them: one reading shared by the keyless health route and the terminal's
 * markets board, which also reports freshness and latency from the same records.
 */
import { MARKETS_BY_GAME, type MarketId } from '../domain/markets.ts';
import type { Game } from '../domain/games.ts';
import type { FetchRecord } from '../domain/quote.ts';
import { marketHealthRow, type MarketHealthRow } from '../pricing/market-health.ts';
import { lastSuccessByMarket, recentFetches, type BookViews } from './book-views.ts';
import type { AppDeps } from './deps.ts';

export interface MarketHealthReading {
  markets: readonly MarketId[];
  records: readonly FetchRecord[];
  lastSuccess: ReadonlyMap<MarketId, number | null>;
  rows: MarketHealthRow[];
}

export function readMarketHealth(
  deps: AppDeps,
  views: BookViews,
  game: Game,
  now: number,
): MarketHealthReading {
  const markets = deps.marketsForGame?.(game) ?? MARKETS_BY_GAME[game];
  const records = recentFetches(deps.fetchHistory, game, now);
  const lastSuccess = lastSuccessByMarket(deps.book, deps.fetchHistory, game, markets, records);
  const byMarket = new Map<MarketId, FetchRecord[]>(markets.map((market) => [market, []]));
  for (const record of records) byMarket.get(record.market)?.push(record);
  const stats = views.marketStats(game);
  const rows = markets.map((market) =>
    marketHealthRow(
      {
        market,
        cadenceMs: deps.marketCadence(market),
        lastSuccessAt: lastSuccess.get(market) ?? null,
        records: byMarket.get(market) ?? [],
        book: stats.get(market),
        note: deps.marketNote?.(market) ?? null,
      },
      now,
    ),
  );
  return { markets, records, lastSuccess, rows };
}
