/**
 * Quote age per market and game, computed at scrape time from the in-memory book with the
 * injected clock: quoted sides held (asks and bids with at least one level), how many are stale
 * (fetched more than 30 minutes ago, the `isStale` rule), their share, and the age of the
 * market's newest data. The scan reads the book's side columns (no side is built) and yields to
 * the event loop after every SLICE_SLOTS (item, market) slots, so a scrape holds up requests for
 * well under a millisecond at a time; concurrent collectors share one scan.
 */
import type { Registry } from 'prom-client';
import { Gauge } from 'prom-client';
import type { Book } from '../book/book.ts';
import type { Clock } from '../domain/clock.ts';
import { isStale } from '../domain/freshness.ts';
import { GAMES, type Game } from '../domain/games.ts';
import type { MarketId } from '../domain/markets.ts';

/** The scan yields to the event loop after this many slots (each an ask and a bid column). */
export const SLICE_SLOTS = 8192;

export interface MarketQuoteAge {
  game: Game;
  market: MarketId;
  quotes: number;
  stale: number;
  /** Seconds since the market's newest fetched data; null when the book holds none. */
  newestAgeSeconds: number | null;
}

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

async function scanGame(book: Book, game: Game, now: number): Promise<MarketQuoteAge[]> {
  const rows = new Map<MarketId, MarketQuoteAge>();
  const row = (market: MarketId) => {
    let held = rows.get(market);
    if (!held) {
      held = { game, market, quotes: 0, stale: 0, newestAgeSeconds: null };
      rows.set(market, held);
    }
    return held;
  };
  const count = (market: MarketId, fetchedAt: number) => {
    const held = row(market);
    held.quotes += 1;
    if (isStale(fetchedAt, now)) held.stale += 1;
  };
  for (let from = 0, slots = 1; from < slots; from += SLICE_SLOTS) {
    slots = book.visitQuoted(game, from, from + SLICE_SLOTS, count);
    if (from + SLICE_SLOTS < slots) await yieldToLoop();
  }
  for (const [market, fetchedAt] of book.lastFetchByMarket(game)) {
    row(market).newestAgeSeconds = Math.max(0, now - fetchedAt) / 1000;
  }
  return [...rows.values()];
}

/** Every (game, market) the book holds data for. */
export async function quoteAges(book: Book, clock: Clock): Promise<MarketQuoteAge[]> {
  const now = clock.now();
  const rows: MarketQuoteAge[] = [];
  for (const game of GAMES) rows.push(...(await scanGame(book, game, now)));
  return rows;
}

type Field = (row: MarketQuoteAge) => number | null;

export function registerQuoteAgeMetrics(registry: Registry, book: Book, clock: Clock): void {
  let scan: Promise<MarketQuoteAge[]> | null = null;
  const shared = () => {
    scan ??= quoteAges(book, clock).finally(() => {
      scan = null;
    });
    return scan;
  };
  const gauge = (name: string, help: string, field: Field) =>
    new Gauge({
      name,
      help,
      labelNames: ['game', 'market'],
      registers: [registry],
      async collect() {
        const rows = await shared();
        this.reset();
        for (const row of rows) {
          const value = field(row);
          if (value !== null) this.set({ game: row.game, market: row.market }, value);
        }
      },
    });
  gauge(
    'pricing_quotes',
    'Quoted sides (asks and bids with at least one price level) held in the book.',
    (row) => row.quotes,
  );
  gauge(
    'pricing_quotes_stale',
    'Quoted sides fetched more than 30 minutes ago (served with isStale true).',
    (row) => row.stale,
  );
  gauge('pricing_quotes_stale_ratio', 'Share of quoted sides that are stale, 0 to 1.', (row) =>
    row.quotes === 0 ? null : row.stale / row.quotes,
  );
  gauge(
    'pricing_quote_newest_age_seconds',
    "Seconds since the market's newest data in the book was fetched.",
    (row) => row.newestAgeSeconds,
  );
}
