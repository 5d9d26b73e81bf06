/**
 * An inventory valued from the book at the moment of the read (docs/api/inventory.md,
 * "Valuation rules"). Per item: the lowest ask, the best cash bid after the seller's commission
 * and withdrawal fee, the suggested price and liquidity. Totals: list value (units × lowest ask,
 * or the best raw cash bid for an item nobody lists), instant cash (each item's merged cash bid
 * ladder walked across its units, capped at its lowest ask), wallet value (the same into Steam's
 * wallet-credit orders) and the one cash market that pays most for the whole inventory.
 * Items are valued once per catalog id, however many units the inventory holds.
 */
import type { Book } from '../book/book.ts';
import type { Game } from '../domain/games.ts';
import type { InventoryItem } from '../domain/inventory.ts';
import type { MarketId } from '../domain/markets.ts';
import type { Cents } from '../domain/money.ts';
import { isStale } from '../domain/freshness.ts';
import type { CatalogItem } from '../domain/item.ts';
import type { SideSnapshot } from '../domain/quote.ts';
import { feesFor, isCashMarket, type FeeModel } from '../markets/fees.ts';
import { sellerNets } from '../pricing/execution.ts';
import { suggestedPrice } from '../pricing/recommendation.ts';
import {
  ALL_MARKETS,
  askSides,
  bestAskSide,
  eligibleBidSides,
  highestBy,
} from '../pricing/top-of-book.ts';
import type { LiquidityBadge } from '../liquidity/classify.ts';
import { liquidityHeadline } from '../liquidity/estimate.ts';
import { byId, netLadder, walkLadder, type NetLevel } from './ladder.ts';

export interface ItemValuation {
  assetId: string;
  marketHashName: string;
  canonicalItemId: string | null;
  /** The catalog's name of the item valued (a Doppler's phase shows here); null when not valued. */
  catalogName: string | null;
  units: number;
  bestAsk: { market: MarketId; price: Cents } | null;
  bestCashBid: { market: MarketId; price: Cents; rawPrice: Cents } | null;
  suggestedPrice: Cents | null;
  liquidityBadge: LiquidityBadge | null;
  medianTimeToSellHours: number | null;
  isStale: boolean;
}

export interface InventoryValuation {
  items: ItemValuation[];
  listValueCents: Cents | null;
  instantCashCents: Cents | null;
  walletValueCents: Cents | null;
  unpricedCount: number;
  staleCount: number;
  /** Items not valued because Steam marks them not marketable. */
  notMarketableCount: number;
  bestCashMarket: { market: MarketId; cashCents: Cents; itemsCovered: number } | null;
  calculatedAt: number;
}

export interface ValuationInputs {
  book: Pick<Book, 'sides' | 'sales' | 'salesStats'>;
  game: Game;
  byId: (id: string) => CatalogItem | undefined;
  feeModel: FeeModel;
  markets: readonly MarketId[];
  now: number;
}

interface PricedItem {
  quote: Omit<ItemValuation, 'assetId' | 'marketHashName' | 'canonicalItemId' | 'units'>;
  cash: NetLevel[];
  wallet: NetLevel[];
  cap: Cents | null;
  listUnit: Cents | null;
}

/** The cash bid side whose top level nets most, with NBBO's tie-break, and what it nets. */
function bestCashBid(cashSides: readonly SideSnapshot[], feeModel: FeeModel) {
  const netOf = (side: SideSnapshot) =>
    sellerNets(side.levels[0]!.price, feesFor(feeModel, side.market));
  const side = highestBy(cashSides, netOf);
  return side && { side, net: netOf(side) };
}

function priceItem(item: CatalogItem, inputs: ValuationInputs): PricedItem {
  const { book, game, feeModel, now } = inputs;
  const sides = book.sides(game, item.id);
  const askSide = bestAskSide(askSides(sides, ALL_MARKETS));
  const cashSides = eligibleBidSides(sides, ALL_MARKETS);
  const walletSides = sides.flatMap((entry) =>
    entry.bid && entry.bid.levels.length > 0 && !isCashMarket(entry.market, feeModel)
      ? [entry.bid]
      : [],
  );
  const bid = bestCashBid(cashSides, feeModel);
  const ask = askSide ? askSide.levels[0]!.price : null;
  const liquidity = liquidityHeadline({
    item,
    markets: inputs.markets,
    sides,
    sales: book.sales(game, item.id),
    salesStats: book.salesStats(game, item.id),
    askPrice: ask,
    now,
  });
  const stale =
    (askSide !== null && isStale(askSide.fetchedAt, now)) ||
    (bid !== null && isStale(bid.side.fetchedAt, now));
  return {
    quote: {
      catalogName: item.marketHashName,
      bestAsk: askSide ? { market: askSide.market, price: ask! } : null,
      bestCashBid: bid
        ? { market: bid.side.market, price: bid.net, rawPrice: bid.side.levels[0]!.price }
        : null,
      suggestedPrice: suggestedPrice(sides, ALL_MARKETS, feeModel, now),
      liquidityBadge: liquidity.liquidityBadge,
      medianTimeToSellHours: liquidity.medianTimeToSellHours,
      isStale: stale,
    },
    cash: netLadder(cashSides, feeModel),
    wallet: netLadder(walletSides, feeModel),
    cap: ask,
    listUnit: ask ?? (bid ? bid.side.levels[0]!.price : null),
  };
}

const UNPRICED: PricedItem['quote'] = {
  catalogName: null,
  bestAsk: null,
  bestCashBid: null,
  suggestedPrice: null,
  liquidityBadge: null,
  medianTimeToSellHours: null,
  isStale: false,
};

interface Group {
  priced: PricedItem;
  units: number;
}

function groupUnits(items: readonly InventoryItem[], inputs: ValuationInputs) {
  const groups = new Map<string, Group>();
  for (const item of items) {
    if (!item.marketable || item.canonicalItemId === null) continue;
    const group = groups.get(item.canonicalItemId);
    if (group) {
      group.units += item.amount;
      continue;
    }
    const catalogItem = inputs.byId(item.canonicalItemId);
    if (catalogItem)
      groups.set(item.canonicalItemId, {
        priced: priceItem(catalogItem, inputs),
        units: item.amount,
      });
  }
  return groups;
}

const addOrNull = (total: Cents | null, add: Cents | null) =>
  add === null ? total : (total ?? 0) + add;

/** Each cash market's walk of every item on its own levels alone; the one paying most wins. */
function bestCashMarket(groups: Iterable<Group>): InventoryValuation['bestCashMarket'] {
  const byMarket = new Map<MarketId, { cashCents: Cents; itemsCovered: number }>();
  const left = new Map<MarketId, number>();
  for (const { priced, units } of groups) {
    left.clear();
    for (const level of priced.cash) {
      let entry = byMarket.get(level.market);
      if (!entry) byMarket.set(level.market, (entry = { cashCents: 0, itemsCovered: 0 }));
      let remaining = left.get(level.market);
      if (remaining === undefined) {
        remaining = units;
        entry.itemsCovered += 1;
      }
      const taken = Math.min(remaining, level.quantity);
      const net = priced.cap === null ? level.net : Math.min(level.net, priced.cap);
      entry.cashCents += taken * net;
      left.set(level.market, remaining - taken);
    }
  }
  let best: InventoryValuation['bestCashMarket'] = null;
  for (const [market, entry] of [...byMarket].sort(([a], [b]) => byId(a, b))) {
    if (!best || entry.cashCents > best.cashCents) best = { market, ...entry };
  }
  return best;
}

export function valueInventory(
  items: readonly InventoryItem[],
  inputs: ValuationInputs,
): InventoryValuation {
  const groups = groupUnits(items, inputs);
  let listValueCents: Cents | null = null;
  let instantCashCents: Cents | null = null;
  let walletValueCents: Cents | null = null;
  for (const { priced, units } of groups.values()) {
    listValueCents = addOrNull(
      listValueCents,
      priced.listUnit === null ? null : priced.listUnit * units,
    );
    if (priced.cash.length > 0) {
      instantCashCents = addOrNull(
        instantCashCents,
        walkLadder(priced.cash, units, priced.cap).cents,
      );
    }
    if (priced.wallet.length > 0) {
      walletValueCents = addOrNull(walletValueCents, walkLadder(priced.wallet, units, null).cents);
    }
  }
  const valued = items.map((item): ItemValuation => {
    const group = item.canonicalItemId === null ? undefined : groups.get(item.canonicalItemId);
    const quote = item.marketable && group ? group.priced.quote : UNPRICED;
    return {
      assetId: item.assetId,
      marketHashName: item.marketHashName,
      canonicalItemId: item.canonicalItemId,
      units: item.amount,
      ...quote,
    };
  });
  const marketable = valued.filter((_, index) => items[index]!.marketable);
  return {
    items: valued,
    listValueCents,
    instantCashCents,
    walletValueCents,
    unpricedCount: marketable.filter((item) => item.bestAsk === null && item.bestCashBid === null)
      .length,
    staleCount: marketable.filter((item) => item.isStale).length,
    notMarketableCount: items.length - marketable.length,
    bestCashMarket: bestCashMarket(groups.values()),
    calculatedAt: inputs.now,
  };
}
