/**
 * The recent fetch measurements per market (a sliding window, 24 h by default) that latency,
 * error-rate and health-bar reads use. Loaded from the store at boot, appended by the runner,
 * pruned as the injected clock moves. The last success per (market, game) outlives the window.
 */
import { DAY, MINUTE, type Clock } from '../domain/clock.ts';
import type { Game } from '../domain/games.ts';
import type { MarketId } from '../domain/markets.ts';
import type { FetchRecord } from '../domain/quote.ts';
import type { PriceStore } from '../store/price-store.ts';

/** Pruning waits until the oldest record is this far past the window, so it runs in batches. */
const PRUNE_SLACK_MS = MINUTE;

export class FetchLog {
  private readonly perMarket = new Map<MarketId, FetchRecord[]>();
  private readonly successes = new Map<string, FetchRecord>();

  constructor(
    private readonly clock: Clock,
    readonly windowMs = DAY,
  ) {}

  /** Loads the window's records from the store (boot). */
  async load(store: Pick<PriceStore, 'loadFetches'>): Promise<number> {
    const rows = await store.loadFetches(this.clock.now() - this.windowMs);
    for (const row of rows) this.append(row);
    return rows.length;
  }

  append(record: FetchRecord): void {
    let list = this.perMarket.get(record.market);
    if (!list) this.perMarket.set(record.market, (list = []));
    let index = list.length;
    while (index > 0 && list[index - 1]!.startedAt > record.startedAt) index -= 1;
    list.splice(index, 0, record);
    if (record.ok) this.noteSuccess(record);
    this.prune(record.market);
  }

  /** Every held record with startedAt >= sinceMs, oldest first. */
  records(sinceMs: number): FetchRecord[] {
    const out: FetchRecord[] = [];
    for (const market of this.perMarket.keys()) out.push(...this.byMarket(market, sinceMs));
    return out.sort((a, b) => a.startedAt - b.startedAt);
  }

  byMarket(market: MarketId, sinceMs: number): FetchRecord[] {
    this.prune(market);
    const list = this.perMarket.get(market) ?? [];
    const from = Math.max(sinceMs, this.clock.now() - this.windowMs);
    return list.slice(firstAtOrAfter(list, from));
  }

  lastSuccess(market: MarketId, game: Game): FetchRecord | null {
    return this.successes.get(`${market}:${game}`) ?? null;
  }

  markets(): MarketId[] {
    return [...this.perMarket.keys()];
  }

  private noteSuccess(record: FetchRecord): void {
    const key = `${record.market}:${record.game}`;
    const held = this.successes.get(key);
    if (!held || held.startedAt <= record.startedAt) this.successes.set(key, record);
  }

  private prune(market: MarketId): void {
    const list = this.perMarket.get(market);
    const cutoff = this.clock.now() - this.windowMs;
    if (!list || list.length === 0 || list[0]!.startedAt >= cutoff - PRUNE_SLACK_MS) return;
    list.splice(0, firstAtOrAfter(list, cutoff));
  }
}

/** Index of the first record with startedAt >= ms (binary search over a sorted list). */
function firstAtOrAfter(list: readonly FetchRecord[], ms: number): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (list[mid]!.startedAt < ms) low = mid + 1;
    else high = mid;
  }
  return low;
}
