/** Catalog items, listings and bid sides shared by the attribute tests. */
import { canonicalId } from '../catalog/canonical-id.ts';
import type { CatalogItem } from '../domain/item.ts';
import type { MarketId } from '../domain/markets.ts';
import type { ListingRecord, SideSnapshot } from '../domain/quote.ts';

export const T0 = Date.parse('2026-11-01T12:00:00Z');

function skin(name: string, extra: Partial<CatalogItem> = {}): CatalogItem {
  return {
    id: canonicalId('cs2', name),
    game: 'cs2',
    marketHashName: name,
    slug: name.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
    category: 'skin',
    ...extra,
  };
}

export const REDLINE = skin('AK-47 | Redline (Field-Tested)', {
  weapon: 'AK-47',
  finish: 'Redline',
  wear: 'Field-Tested',
  floatRange: { min: 0.1, max: 0.7 },
});

export const FADE = skin('★ Karambit | Fade (Factory New)', {
  category: 'knife',
  weapon: 'Karambit',
  finish: 'Fade',
  wear: 'Factory New',
  floatRange: { min: 0, max: 0.08 },
});

const DOPPLER_NAME = '★ Karambit | Doppler (Factory New)';
const PHASES: [string, number][] = [
  ['Phase 2', 419],
  ['Ruby', 415],
];

export const DOPPLER = skin(DOPPLER_NAME, {
  category: 'knife',
  weapon: 'Karambit',
  finish: 'Doppler',
  wear: 'Factory New',
  floatRange: { min: 0, max: 0.08 },
  variants: PHASES.map(([name, paintIndex]) => ({
    marketHashName: DOPPLER_NAME.replace('Doppler', `Doppler ${name}`),
    family: 'doppler' as const,
    name,
    paintIndex,
  })),
});

export const DOPPLER_VARIANTS = DOPPLER.variants!.map((variant) =>
  skin(variant.marketHashName, {
    category: 'knife',
    variantOf: DOPPLER.id,
    phase: variant.name,
    paintIndex: variant.paintIndex,
  }),
);

export const RUST_AK: CatalogItem = {
  id: canonicalId('rust', 'Tempered AK47'),
  game: 'rust',
  marketHashName: 'Tempered AK47',
  slug: 'tempered-ak47',
  category: 'other',
};

export const ATTRIBUTE_ITEMS = [REDLINE, FADE, DOPPLER, ...DOPPLER_VARIANTS];

let sequence = 0;

export function listing(
  item: CatalogItem,
  market: MarketId,
  price: number,
  extra: Partial<ListingRecord> = {},
): ListingRecord {
  sequence += 1;
  return {
    game: item.game,
    itemId: item.id,
    market,
    listingId: `L${sequence}`,
    price,
    floatValue: null,
    paintSeed: null,
    paintIndex: null,
    phase: null,
    inspectLink: null,
    stickers: [],
    isStatTrak: false,
    fetchedAt: T0,
    ingestedAt: T0 + 1000,
    originalCurrency: 'USD',
    ...extra,
  };
}

export function bidSide(
  item: CatalogItem,
  market: MarketId,
  prices: number[],
  at = T0,
): SideSnapshot {
  return {
    game: item.game,
    itemId: item.id,
    market,
    side: 'bid',
    levels: prices.map((price) => ({ price, quantity: 1, orders: 1 })),
    listingCount: prices.length,
    totalQuantity: prices.length,
    fetchedAt: at,
    ingestedAt: at,
    sourceUpdatedAt: null,
    sourceTimeKind: null,
    originalCurrency: 'USD',
  };
}

export function askSide(
  item: CatalogItem,
  market: MarketId,
  prices: number[],
  at = T0,
): SideSnapshot {
  return { ...bidSide(item, market, prices, at), side: 'ask' };
}
