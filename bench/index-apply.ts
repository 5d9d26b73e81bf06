/** Probe: HTTP-thread CPU of applying whole-catalog batches with the book index listening. */
import { Book } from '../src/book/book.ts';
import { loadCatalogs } from '../src/catalog/index.ts';
import { indexBook } from '../src/http/book-index.ts';
import { MARKET_IDS } from '../src/domain/markets.ts';
import type { SideSnapshot } from '../src/domain/quote.ts';

const catalogs = loadCatalogs();
const items = catalogs.cs2.items;
const T0 = 1_764_000_000_000;
function batch(market: string, round: number): SideSnapshot[] {
  const sides: SideSnapshot[] = [];
  items.forEach((item, i) => {
    for (const side of ['ask', 'bid'] as const) {
      const base = 1000 + ((i * 7 + round * 13) % 5000);
      sides.push({
        game: 'cs2',
        itemId: item.id,
        market: market as never,
        side,
        levels: Array.from({ length: 5 }, (_, k) => ({
          price: base + (side === 'ask' ? k : -k),
          quantity: 1 + k,
          orders: side === 'bid' ? null : k + 1,
        })),
        listingCount: side === 'ask' && i % 3 === 0 ? null : 4,
        totalQuantity: 15,
        fetchedAt: T0 + round * 60_000,
        ingestedAt: T0 + round * 60_000,
        sourceUpdatedAt: null,
        sourceTimeKind: null,
        originalCurrency: 'USD',
      });
    }
  });
  return sides;
}
const markets = MARKET_IDS.slice(0, 6);
const batches = [0, 1].flatMap((round) => markets.map((m) => batch(m, round)));
function run(withIndex: boolean) {
  const book = new Book();
  const indexes = withIndex ? indexBook(book, catalogs, 500).indexes : null;
  const cpu = process.cpuUsage();
  for (const sides of batches) {
    for (let at = 0; at < sides.length; at += 2500)
      book.apply({ sides: sides.slice(at, at + 2500), sales: [], listings: [] });
  }
  const used = process.cpuUsage(cpu);
  return { ms: (used.user + used.system) / 1000, indexes };
}
run(false);
const bare = [run(false).ms, run(false).ms];
const indexed = run(true);
const indexed2 = run(true);
const indexes = indexed.indexes!;
console.log(
  `apply without index ${bare.map((x) => x.toFixed(0))} ms, with ${indexed.ms.toFixed(0)}, ${indexed2.ms.toFixed(0)} ms; quoted ${indexes.cs2.quotedItems().length}, stats ${JSON.stringify([...indexes.cs2.marketStats()].map(([m, s]) => [m, s.askRows, s.listings]))}`,
);
