/**
 * The latest ask and bid of every (item, market) of one game, held in typed-array columns: a
 * slot per (item, market), linked per item in the order its markets first quoted, and per slot
 * and side the scalar fields, interned strings and a ladder in the level arena. No object is
 * kept per side or per level; reads build the `MarketSides` they return, and an item read
 * again soon reads back the same objects (recent-reads.ts) until one of its sides changes.
 * A side the columns cannot hold exactly (a negative or non-integer count, a NaN time) is
 * kept as applied.
 */
import type { Game } from '../domain/games.ts';
import type { MarketId } from '../domain/markets.ts';
import type { SideSnapshot } from '../domain/quote.ts';
import { fitsArena, fitsInt32, LevelArena } from './level-arena.ts';
import { RecentReads } from './recent-reads.ts';
import { StringTable } from './string-table.ts';

/** One market's latest ask and bid sides of an item (null: none held). */
export interface MarketSides {
  market: MarketId;
  ask: SideSnapshot | null;
  bid: SideSnapshot | null;
}

/** One market's best ask of an item: its first level's price and the side's fields a bulk row shows. */
export interface BestAsk {
  market: MarketId;
  price: number;
  fetchedAt: number;
  originalCurrency: string;
}

/**
 * One market's top of book for an item, read from the columns: each side's best price (null
 * when the side has no level), the ask's size (its listing count, else the sum over its levels
 * of orders or quantity) and the newer of the two sides' fetch times.
 */
export interface MarketTop {
  askPrice: number | null;
  bidPrice: number | null;
  askSize: number;
  fetchedAt: number | null;
}

const NO_SLOT = -1;
/** Items whose read `MarketSides` are held at most (a few KB each). */
export const RECENT_ITEMS = 1024;
const NULL_COUNT = -1;
/** Per side column: no side, packed in the columns, or kept as the applied object. */
const NONE = 0;
const PACKED = 1;
const KEPT = 2;

/** A kept side's size, as `MarketTop.askSize` counts it. */
function keptSize(side: SideSnapshot): number {
  if (side.listingCount !== null) return side.listingCount;
  return side.levels.reduce((total, level) => total + (level.orders ?? level.quantity), 0);
}

function grown<T extends Int32Array | Uint16Array | Uint8Array | Float64Array>(
  array: T,
  size: number,
): T {
  const next = new (array.constructor as new (length: number) => T)(size);
  next.set(array);
  return next;
}

/** Column index of one side of a slot. */
const columnOf = (slot: number, side: SideSnapshot['side']) => slot * 2 + (side === 'ask' ? 0 : 1);

export class SideStore {
  private readonly firstSlot = new Map<string, number>();
  private readonly strings = new StringTable();
  private readonly markets = new StringTable();
  private readonly arena = new LevelArena();
  private readonly kept = new Map<number, SideSnapshot>();
  private readonly recent: RecentReads<MarketSides[]>;
  private slots = 0;
  private nextSlot = new Int32Array(0);
  private market = new Uint16Array(0);
  private kind = new Uint8Array(0);
  private fetchedAt = new Float64Array(0);
  private ingestedAt = new Float64Array(0);
  private sourceUpdatedAt = new Float64Array(0);
  private listingCount = new Int32Array(0);
  private totalQuantity = new Int32Array(0);
  private timeKind = new Uint16Array(0);
  private currency = new Uint16Array(0);

  constructor(
    private readonly game: Game,
    recentItems = RECENT_ITEMS,
  ) {
    this.recent = new RecentReads(recentItems);
  }

  /** Stores `side` unless a newer fetch of it is held; false when it was ignored. */
  put(side: SideSnapshot): boolean {
    const column = columnOf(this.slotFor(side.itemId, side.market), side.side);
    const kind = this.kind[column]!;
    if (kind !== NONE && this.fetchedAt[column]! > side.fetchedAt) return false;
    if (kind === KEPT) this.kept.delete(column);
    this.recent.drop(side.itemId);
    this.fetchedAt[column] = side.fetchedAt;
    if (this.packable(side)) {
      this.pack(column, side);
    } else {
      this.arena.release(column);
      this.kept.set(column, side);
      this.kind[column] = KEPT;
    }
    return true;
  }

  marketSides(itemId: string, market: MarketId): MarketSides | undefined {
    const held = this.recent.get(itemId);
    if (held) return held.find((entry) => entry.market === market);
    const code = this.markets.codeOf(market);
    if (code === undefined) return undefined;
    for (let slot = this.firstSlot.get(itemId) ?? NO_SLOT; slot !== NO_SLOT;) {
      if (this.market[slot] === code) return this.entry(itemId, slot);
      slot = this.nextSlot[slot]!;
    }
    return undefined;
  }

  sides(itemId: string): MarketSides[] {
    const held = this.recent.get(itemId);
    if (held) return held.slice();
    const out: MarketSides[] = [];
    for (let slot = this.firstSlot.get(itemId) ?? NO_SLOT; slot !== NO_SLOT;) {
      out.push(this.entry(itemId, slot));
      slot = this.nextSlot[slot]!;
    }
    return this.recent.offer(itemId, out) ? out.slice() : out;
  }

  /**
   * Hands `visit` each quoted side (one with a level) of slots `from` to `to` − 1, with its
   * market and fetch time, without building it; returns the number of slots held.
   */
  visitQuoted(
    from: number,
    to: number,
    visit: (market: MarketId, fetchedAt: number) => void,
  ): number {
    for (let column = from * 2; column < Math.min(to, this.slots) * 2; column += 1) {
      const kind = this.kind[column]!;
      if (kind === NONE) continue;
      const levels = kind === KEPT ? this.kept.get(column)!.levels : null;
      if ((levels?.length ?? this.arena.levelCount(column)) === 0) continue;
      visit(this.markets.at(this.market[column >> 1]!) as MarketId, this.fetchedAt[column]!);
    }
    return this.slots;
  }

  itemIds(): IterableIterator<string> {
    return this.firstSlot.keys();
  }

  /**
   * Each market's best ask of an item (markets with no ask level absent), read from the columns
   * without building sides or ladders and without entering the recent reads: a whole-catalog
   * scan neither allocates per level nor displaces hot items.
   */
  bestAsks(itemId: string): BestAsk[] {
    const out: BestAsk[] = [];
    for (let slot = this.firstSlot.get(itemId) ?? NO_SLOT; slot !== NO_SLOT;) {
      const column = slot * 2;
      const kind = this.kind[column]!;
      if (kind === KEPT) {
        const { market, levels, fetchedAt, originalCurrency } = this.kept.get(column)!;
        if (levels.length > 0)
          out.push({ market, price: levels[0]!.price, fetchedAt, originalCurrency });
      } else if (kind === PACKED && this.arena.levelCount(column) > 0) {
        out.push({
          market: this.markets.at(this.market[slot]!) as MarketId,
          price: this.arena.firstPrice(column),
          fetchedAt: this.fetchedAt[column]!,
          originalCurrency: this.strings.at(this.currency[column]!) as string,
        });
      }
      slot = this.nextSlot[slot]!;
    }
    return out;
  }

  /** `MarketTop` of one market, without building sides or ladders (the book index's read). */
  marketTop(itemId: string, market: MarketId): MarketTop | undefined {
    const code = this.markets.codeOf(market);
    if (code === undefined) return undefined;
    for (let slot = this.firstSlot.get(itemId) ?? NO_SLOT; slot !== NO_SLOT;) {
      if (this.market[slot] === code) return this.top(slot * 2);
      slot = this.nextSlot[slot]!;
    }
    return undefined;
  }

  /** Bytes of the columns and the level arena (sides kept as applied not counted). */
  byteLength(): number {
    const perSlot = [this.nextSlot, this.market].reduce((sum, a) => sum + a.byteLength, 0);
    const perSide = [
      this.kind,
      this.fetchedAt,
      this.ingestedAt,
      this.sourceUpdatedAt,
      this.listingCount,
      this.totalQuantity,
      this.timeKind,
      this.currency,
    ].reduce((sum, a) => sum + a.byteLength, 0);
    return perSlot + perSide + this.arena.byteLength();
  }

  private packable(side: SideSnapshot): boolean {
    const { listingCount, sourceUpdatedAt } = side;
    return (
      fitsInt32(side.totalQuantity) &&
      (listingCount === null || fitsInt32(listingCount)) &&
      (sourceUpdatedAt === null || !Number.isNaN(sourceUpdatedAt)) &&
      this.strings.canIntern(side.sourceTimeKind) &&
      this.strings.canIntern(side.originalCurrency) &&
      fitsArena(side.levels)
    );
  }

  private pack(column: number, side: SideSnapshot): void {
    this.kind[column] = PACKED;
    this.ingestedAt[column] = side.ingestedAt;
    this.sourceUpdatedAt[column] = side.sourceUpdatedAt ?? Number.NaN;
    this.listingCount[column] = side.listingCount ?? NULL_COUNT;
    this.totalQuantity[column] = side.totalQuantity;
    this.timeKind[column] = this.strings.intern(side.sourceTimeKind);
    this.currency[column] = this.strings.intern(side.originalCurrency);
    this.arena.write(column, side.levels);
  }

  private top(askColumn: number): MarketTop {
    const top: MarketTop = { askPrice: null, bidPrice: null, askSize: 0, fetchedAt: null };
    for (const column of [askColumn, askColumn + 1]) {
      const kind = this.kind[column]!;
      const kept = kind === KEPT ? this.kept.get(column)! : null;
      const levels = kept
        ? kept.levels.length
        : kind === PACKED
          ? this.arena.levelCount(column)
          : 0;
      if (levels === 0) continue;
      const price = kept ? kept.levels[0]!.price : this.arena.firstPrice(column);
      const fetchedAt = this.fetchedAt[column]!;
      top.fetchedAt = Math.max(top.fetchedAt ?? 0, fetchedAt);
      if (column === askColumn + 1) {
        top.bidPrice = price;
        continue;
      }
      top.askPrice = price;
      top.askSize = kept ? keptSize(kept) : this.packedSize(column);
    }
    return top;
  }

  private packedSize(column: number): number {
    const count = this.listingCount[column]!;
    return count === NULL_COUNT ? this.arena.size(column) : count;
  }

  private entry(itemId: string, slot: number): MarketSides {
    const market = this.markets.at(this.market[slot]!) as MarketId;
    return {
      market,
      ask: this.side(itemId, market, 'ask', slot * 2),
      bid: this.side(itemId, market, 'bid', slot * 2 + 1),
    };
  }

  private side(
    itemId: string,
    market: MarketId,
    side: SideSnapshot['side'],
    column: number,
  ): SideSnapshot | null {
    const kind = this.kind[column]!;
    if (kind === NONE) return null;
    if (kind === KEPT) return this.kept.get(column)!;
    const count = this.listingCount[column]!;
    const updatedAt = this.sourceUpdatedAt[column]!;
    return {
      game: this.game,
      itemId,
      market,
      side,
      levels: this.arena.read(column),
      listingCount: count === NULL_COUNT ? null : count,
      totalQuantity: this.totalQuantity[column]!,
      fetchedAt: this.fetchedAt[column]!,
      ingestedAt: this.ingestedAt[column]!,
      sourceUpdatedAt: Number.isNaN(updatedAt) ? null : updatedAt,
      sourceTimeKind: this.strings.at(this.timeKind[column]!),
      originalCurrency: this.strings.at(this.currency[column]!) as string,
    };
  }

  /** The item's slot for `market`, appended to the item's list when it has none. */
  private slotFor(itemId: string, market: MarketId): number {
    const code = this.markets.intern(market);
    let slot = this.firstSlot.get(itemId) ?? NO_SLOT;
    let last = NO_SLOT;
    while (slot !== NO_SLOT) {
      if (this.market[slot] === code) return slot;
      last = slot;
      slot = this.nextSlot[slot]!;
    }
    slot = this.addSlot(code);
    if (last === NO_SLOT) this.firstSlot.set(itemId, slot);
    else this.nextSlot[last] = slot;
    return slot;
  }

  private addSlot(marketCode: number): number {
    if (this.slots === this.nextSlot.length) this.growSlots();
    const slot = this.slots;
    this.slots += 1;
    this.nextSlot[slot] = NO_SLOT;
    this.market[slot] = marketCode;
    return slot;
  }

  private growSlots(): void {
    const slots = Math.max(1024, Math.ceil(this.nextSlot.length * 1.5));
    this.nextSlot = grown(this.nextSlot, slots);
    this.market = grown(this.market, slots);
    const columns = slots * 2;
    this.kind = grown(this.kind, columns);
    this.fetchedAt = grown(this.fetchedAt, columns);
    this.ingestedAt = grown(this.ingestedAt, columns);
    this.sourceUpdatedAt = grown(this.sourceUpdatedAt, columns);
    this.listingCount = grown(this.listingCount, columns);
    this.totalQuantity = grown(this.totalQuantity, columns);
    this.timeKind = grown(this.timeKind, columns);
    this.currency = grown(this.currency, columns);
    this.arena.ensureRegions(columns);
  }
}
