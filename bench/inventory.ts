/**
 * `npm run bench -- inventory`: valuing a 1,000-item inventory (600 distinct items, the rest
 * duplicates) from a book where each item has asks and 10-level bid ladders on four markets and
 * 40 recent sales on two, against the baseline of the same book's plain best-ask sum (the
 * one-price-per-item valuation peers serve). Target: ≤ 20 ms per valuation on one core, judged on
 * the CPU time per run (the wall time is printed too; on a loaded machine it is the CPU time
 * plus waiting for a core), with the load average printed beside it.
 */
import { availableParallelism, loadavg } from 'node:os';
import { Book } from '../src/book/book.ts';
import type { InventoryItem } from '../src/domain/inventory.ts';
import type { CatalogItem } from '../src/domain/item.ts';
import type { MarketId } from '../src/domain/markets.ts';
import type { SideSnapshot } from '../src/domain/quote.ts';
import { valueInventory } from '../src/inventory/valuation.ts';
import { LIQUIDITY_MARKETS } from '../src/liquidity/markets.ts';
import { evenSales } from '../src/liquidity/test-fixtures.ts';
import { DEFAULT_FEE_MODEL } from '../src/markets/fees.ts';
import { ALL_MARKETS, askSides, bestAskSide } from '../src/pricing/top-of-book.ts';

const NOW = Date.parse('2026-11-01T12:00:00Z');
const RUNS = 50;
const DISTINCT = 600;
const HELD = 1000;
const MARKETS: MarketId[] = ['buff163', 'csfloat', 'skinport', 'steamcommunity'];

function side(kind: 'ask' | 'bid', itemId: string, market: MarketId, top: number): SideSnapshot {
  const levels = Array.from({ length: 10 }, (_, index) => ({
    price: kind === 'ask' ? top + index * 7 : top - index * 7,
    quantity: 1 + (index % 3),
    orders: 1,
  }));
  return {
    game: 'cs2',
    itemId,
    market,
    side: kind,
    levels,
    listingCount: levels.length,
    totalQuantity: levels.reduce((sum, level) => sum + level.quantity, 0),
    fetchedAt: NOW - 60_000,
    ingestedAt: NOW - 59_000,
    sourceUpdatedAt: null,
    sourceTimeKind: null,
    originalCurrency: 'USD',
  };
}

function setUp() {
  const book = new Book();
  const catalog = new Map<string, CatalogItem>();
  for (let index = 0; index < DISTINCT; index++) {
    const id = `item-${index}`;
    catalog.set(id, { id, game: 'cs2', marketHashName: id, slug: id, category: 'skin' });
    const base = 1000 + index * 13;
    book.apply({
      sides: MARKETS.flatMap((market, at) => [
        side('ask', id, market, base + at * 11),
        side('bid', id, market, base - 100 - at * 9),
      ]),
      sales: [
        ...evenSales('buff163', 40, NOW - 60_000, 3_600_000, id),
        ...evenSales('csfloat', 40, NOW - 60_000, 5_400_000, id),
      ],
      listings: [],
    });
  }
  const items: InventoryItem[] = Array.from({ length: HELD }, (_, index) => {
    const id = `item-${index % DISTINCT}`;
    return {
      assetId: String(index + 1),
      classId: '1',
      instanceId: '0',
      marketHashName: id,
      marketName: id,
      tradable: true,
      marketable: true,
      amount: 1,
      canonicalItemId: id,
    };
  });
  return { book, catalog, items };
}

interface Timing {
  wallMs: number;
  /** CPU time of the process per run (all its threads, so GC helpers count too). */
  cpuMs: number;
}

function timeMs(runs: number, work: () => void): Timing {
  for (let index = 0; index < 3; index++) work();
  const cpu = process.cpuUsage();
  const start = process.hrtime.bigint();
  for (let index = 0; index < runs; index++) work();
  const wallMs = Number(process.hrtime.bigint() - start) / 1e6 / runs;
  const used = process.cpuUsage(cpu);
  return { wallMs, cpuMs: (used.user + used.system) / 1000 / runs };
}

export function benchInventory(): void {
  const { book, catalog, items } = setUp();
  const inputs = {
    book,
    game: 'cs2' as const,
    byId: (id: string) => catalog.get(id),
    feeModel: DEFAULT_FEE_MODEL,
    markets: LIQUIDITY_MARKETS.cs2,
    now: NOW,
  };
  let total = 0;
  const valuation = timeMs(RUNS, () => {
    total = valueInventory(items, inputs).instantCashCents ?? 0;
  });
  const baseline = timeMs(RUNS, () => {
    total = 0;
    for (const item of items) {
      const best = bestAskSide(askSides(book.sides('cs2', item.canonicalItemId!), ALL_MARKETS));
      total += best?.levels[0]?.price ?? 0;
    }
  });
  console.log(
    `valuation of ${HELD} items (${DISTINCT} distinct, 4 markets, 10-level ladders): ` +
      `${valuation.wallMs.toFixed(2)} ms wall, ${valuation.cpuMs.toFixed(2)} ms CPU (target ≤ 20 ms); ` +
      `best-ask sum baseline ${baseline.wallMs.toFixed(2)} ms wall, ${baseline.cpuMs.toFixed(2)} ms CPU; ` +
      `ratio ${(valuation.cpuMs / baseline.cpuMs).toFixed(1)}x CPU (check ${total > 0 ? 'ok' : 'empty'}; ` +
      `load average ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores)`,
  );
}
