/** The harness of the attribute route tests: catalog, in-memory SQLite history, filled book. */
import { canonicalId } from '../../catalog/canonical-id.ts';
import type { CatalogItem } from '../../domain/item.ts';
import type { ListingRecord } from '../../domain/quote.ts';
import { MINUTE } from '../../domain/clock.ts';
import {
  ATTRIBUTE_ITEMS,
  bidSide,
  DOPPLER_VARIANTS,
  FADE,
  listing,
  REDLINE,
  RUST_AK,
} from '../../attributes/test-fixtures.ts';
import { createSqlitePriceStore } from '../../store/sqlite/sqlite-price-store.ts';
import type { RouteSet } from '../app.ts';
import { auth, buildHarness, KEYS, testCatalog } from '../test-support.ts';

/* eslint-disable @typescript-eslint/no-explicit-any -- response bodies are read field by field */
export type Body = any;

export const EXTRA: CatalogItem[] = Array.from({ length: 7 }, (_, i) => ({
  id: canonicalId('cs2', `Extra ${i} (Field-Tested)`),
  game: 'cs2',
  marketHashName: `Extra ${i} (Field-Tested)`,
  slug: `extra-${i}`,
  category: 'skin',
}));

export async function harness(withHistory = true, routeSets: readonly RouteSet[] = []) {
  const store = createSqlitePriceStore({ path: ':memory:' });
  await store.init();
  const built = await buildHarness(
    {
      catalogs: {
        cs2: testCatalog('cs2', [...ATTRIBUTE_ITEMS, ...EXTRA]),
        rust: testCatalog('rust', [RUST_AK]),
      },
      ...(withHistory ? { history: store } : {}),
    },
    routeSets,
  );
  const now = built.clock.now();
  const put = (listings: ListingRecord[]) => built.book.apply({ sides: [], sales: [], listings });
  const get = async (url: string, key: string = KEYS.pro) => {
    const response = await built.app.inject({ url, headers: auth(key) });
    return { status: response.statusCode, body: response.json() as Body };
  };
  return { ...built, store, now, put, get };
}

export function filled(h: Awaited<ReturnType<typeof harness>>) {
  const at = { fetchedAt: h.now - MINUTE };
  h.put([
    listing(REDLINE, 'buff163', 1500, { ...at, floatValue: 0.15 }),
    listing(REDLINE, 'buff163', 1400, { ...at, floatValue: 0.17 }),
    listing(REDLINE, 'buff163', 1300, { ...at, floatValue: 0.3 }),
    listing(REDLINE, 'csfloat', 1350, { ...at, floatValue: 0.155 }),
  ]);
  h.book.apply({ sides: [bidSide(REDLINE, 'buff163', [1200], h.now)], sales: [], listings: [] });
  h.put([
    listing(DOPPLER_VARIANTS[1]!, 'buff163', 600_000, {
      ...at,
      floatValue: 0.01,
      phase: 'Ruby',
      paintIndex: 415,
    }),
    listing(DOPPLER_VARIANTS[0]!, 'buff163', 90_000, {
      ...at,
      floatValue: 0.012,
      phase: 'Phase 2',
      paintIndex: 419,
    }),
  ]);
  h.put([listing(FADE, 'csfloat', 80_000, { ...at, floatValue: 0.02, paintSeed: 412 })]);
}

export const q = (name: string) => encodeURIComponent(name);
