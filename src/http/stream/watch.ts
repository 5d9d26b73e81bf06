/**
 * What a price stream remembers of one watched item under one market selection: the Quote
 * record each market shows on each side (the `/v1/pricing` rows) and the top of book (the
 * `/v1/nbbo` best ask, best bid and spread). `refresh` compares the book with that memory and
 * reports the differences as stream events, so that applying them to the last snapshot gives
 * what the REST routes answer now. Pure apart from the memory it updates.
 */
import type { MarketSides } from '../../book/book.ts';
import { iso } from '../../domain/clock.ts';
import type { Game } from '../../domain/games.ts';
import { staleFrom } from '../../domain/freshness.ts';
import type { MarketId } from '../../domain/markets.ts';
import type { Side } from '../../domain/observation.ts';
import type { SideSnapshot } from '../../domain/quote.ts';
import { topQuote, type TopQuote } from '../../pricing/book-view.ts';
import { askQuote, bidQuote, type AskQuote, type BidQuote } from '../../pricing/snapshot.ts';
import {
  askSides,
  bestAskSide,
  bestBidSide,
  eligibleBidSides,
  spreadState,
  type MarketSelection,
} from '../../pricing/top-of-book.ts';

export interface WatchedItem {
  id: string;
  marketHashName: string;
}

export type QuoteRecord = AskQuote | BidQuote;

export interface QuoteEvent {
  type: 'quote';
  data: {
    marketHashName: string;
    canonicalItemId: string;
    market: MarketId;
    side: Side;
    quote: QuoteRecord | null;
  };
}

export interface StaleEvent {
  type: 'stale';
  data: { marketHashName: string; canonicalItemId: string; market: MarketId; side: Side };
}

export interface NbboEvent {
  type: 'nbbo';
  data: {
    marketHashName: string;
    canonicalItemId: string;
    bestAsk: TopQuote | null;
    bestBid: TopQuote | null;
    spreadBps: number | null;
    calculatedAt: string;
  };
}

export type ItemEvent = QuoteEvent | StaleEvent | NbboEvent;

interface HeldQuote {
  json: string;
  record: QuoteRecord;
  /** When the record's isStale turns true (ms), or Infinity once it has. */
  staleAt: number;
}

const SIDES: readonly Side[] = ['ask', 'bid'];

/** `markets=` as a stable text (the watch key's last part). */
export function selectionKey(selection: MarketSelection): string {
  return selection.markets ? [...selection.markets].sort().join(',') : '*';
}

export function watchKey(game: Game, itemId: string, selection: MarketSelection): string {
  return `${game}|${itemId}|${selectionKey(selection)}`;
}

function quoteOf(side: Side, snapshot: SideSnapshot | null, now: number): QuoteRecord | null {
  if (!snapshot || snapshot.levels.length === 0) return null;
  return side === 'ask' ? askQuote(snapshot, now) : bidQuote(snapshot, now);
}

function onlyTurnedStale(held: HeldQuote, record: QuoteRecord): boolean {
  if (held.record.isStale || !record.isStale) return false;
  return JSON.stringify({ ...record, isStale: false }) === held.json;
}

export class Watch {
  readonly quotes = new Map<string, HeldQuote>();
  private topJson = '';
  /** The earliest moment a held quote turns stale (Infinity when none will). */
  nextStaleAt = Infinity;

  constructor(
    readonly key: string,
    readonly game: Game,
    readonly item: WatchedItem,
    readonly selection: MarketSelection,
    /** The last event id issued before this watch began (resume needs an id at or after it). */
    readonly since: number,
  ) {}

  /**
   * Brings the memory up to `sides` at `now`; the differences, in the order to apply them.
   * The first call only fills the memory (its events are what the snapshot already shows).
   */
  refresh(sides: readonly MarketSides[], now: number): ItemEvent[] {
    const events: ItemEvent[] = [];
    const markets = new Set<MarketId>();
    for (const entry of sides) {
      if (this.selection.markets && !this.selection.markets.has(entry.market)) continue;
      markets.add(entry.market);
      for (const side of SIDES) this.compareQuote(entry.market, side, entry[side], now, events);
    }
    for (const key of [...this.quotes.keys()]) {
      const [market, side] = key.split(':') as [MarketId, Side];
      if (!markets.has(market)) this.compareQuote(market, side, null, now, events);
    }
    this.compareTop(sides, now, events);
    this.nextStaleAt = Math.min(Infinity, ...[...this.quotes.values()].map((q) => q.staleAt));
    return events;
  }

  private compareQuote(
    market: MarketId,
    side: Side,
    snapshot: SideSnapshot | null,
    now: number,
    events: ItemEvent[],
  ): void {
    const slot = `${market}:${side}`;
    const held = this.quotes.get(slot);
    const record = quoteOf(side, snapshot, now);
    const base = { marketHashName: this.item.marketHashName, canonicalItemId: this.item.id };
    if (record === null) {
      if (!held) return;
      this.quotes.delete(slot);
      events.push({ type: 'quote', data: { ...base, market, side, quote: null } });
      return;
    }
    const json = JSON.stringify(record);
    if (held?.json === json) return;
    const staleAt = record.isStale ? Infinity : staleFrom(snapshot!.fetchedAt);
    if (held && onlyTurnedStale(held, record)) {
      events.push({ type: 'stale', data: { ...base, market, side } });
    } else {
      events.push({ type: 'quote', data: { ...base, market, side, quote: record } });
    }
    this.quotes.set(slot, { json, record, staleAt });
  }

  private compareTop(sides: readonly MarketSides[], now: number, events: ItemEvent[]): void {
    const askSide = bestAskSide(askSides(sides, this.selection));
    const bidSide = bestBidSide(eligibleBidSides(sides, this.selection));
    const bestAsk = askSide ? topQuote(askSide, now) : null;
    const bestBid = bidSide ? topQuote(bidSide, now) : null;
    const { spreadBps } = spreadState(bestAsk?.price ?? null, bestBid?.price ?? null);
    const json = JSON.stringify([bestAsk, bestBid, spreadBps]);
    if (json === this.topJson) return;
    this.topJson = json;
    events.push({
      type: 'nbbo',
      data: {
        marketHashName: this.item.marketHashName,
        canonicalItemId: this.item.id,
        bestAsk,
        bestBid,
        spreadBps,
        calculatedAt: iso(now),
      },
    });
  }
}
