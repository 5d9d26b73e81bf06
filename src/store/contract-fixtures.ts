/**
 * Record builders and the store lifecycle helper for the PriceStore contract suite.
 */
import { MINUTE } from '../domain/clock.ts';
import type { FetchRecord, ListingRecord, SaleRecord, SideSnapshot } from '../domain/quote.ts';
import type { PriceStore } from './price-store.ts';

export type PriceStoreFactory = () => Promise<{ store: PriceStore; cleanup(): Promise<void> }>;

/** 2026-11-01T00:00:00Z */
export const T0 = 1_793_491_200_000;

/** Opens a fresh store, runs init(), hands it to `body`, then closes it and cleans up. */
export async function withStore(
  make: PriceStoreFactory,
  body: (store: PriceStore) => Promise<void>,
): Promise<void> {
  const { store, cleanup } = await make();
  try {
    await store.init();
    await body(store);
  } finally {
    await store.close();
    await cleanup();
  }
}

export function side(overrides: Partial<SideSnapshot> = {}): SideSnapshot {
  return {
    game: 'cs2',
    itemId: 'ak-47-redline-field-tested',
    market: 'skinport',
    side: 'ask',
    levels: [
      { price: 1234, quantity: 2, orders: null },
      { price: 1250, quantity: 1, orders: 3 },
    ],
    listingCount: 17,
    totalQuantity: 3,
    fetchedAt: T0,
    ingestedAt: T0 + 250,
    sourceUpdatedAt: T0 - MINUTE,
    sourceTimeKind: 'item_updated',
    originalCurrency: 'EUR',
    ...overrides,
  };
}

/** A side with every nullable field null and no levels. */
export function bareSide(overrides: Partial<SideSnapshot> = {}): SideSnapshot {
  return side({
    side: 'bid',
    levels: [],
    listingCount: null,
    totalQuantity: 0,
    sourceUpdatedAt: null,
    sourceTimeKind: null,
    ...overrides,
  });
}

export function sale(overrides: Partial<SaleRecord> = {}): SaleRecord {
  return {
    game: 'cs2',
    itemId: 'ak-47-redline-field-tested',
    market: 'csfloat',
    price: 1199,
    quantity: 1,
    soldAt: T0,
    ingestedAt: T0 + 500,
    originalCurrency: 'USD',
    ...overrides,
  };
}

export function listing(overrides: Partial<ListingRecord> = {}): ListingRecord {
  return {
    game: 'cs2',
    itemId: 'ak-47-redline-field-tested',
    market: 'csfloat',
    listingId: 'L-1',
    price: 1310,
    floatValue: 0.152345678901234,
    paintSeed: 661,
    paintIndex: 282,
    phase: 'Phase 2',
    inspectLink: 'steam://rungame/730/76561202255233023/+csgo_econ_action_preview%20S1A2D3',
    stickers: ['Sticker | Titan (Holo) | Katowice 2014', 'Sticker | iBUYPOWER'],
    isStatTrak: true,
    fetchedAt: T0,
    ingestedAt: T0 + 100,
    originalCurrency: 'USD',
    ...overrides,
  };
}

/** A listing with every nullable field null, no stickers and isStatTrak false. */
export function bareListing(overrides: Partial<ListingRecord> = {}): ListingRecord {
  return listing({
    listingId: 'L-bare',
    floatValue: null,
    paintSeed: null,
    paintIndex: null,
    phase: null,
    inspectLink: null,
    stickers: [],
    isStatTrak: false,
    ...overrides,
  });
}

export function fetchRecord(overrides: Partial<FetchRecord> = {}): FetchRecord {
  return {
    market: 'skinport',
    game: 'cs2',
    startedAt: T0,
    fetchedAt: T0 + 800,
    ingestedAt: T0 + 900,
    ok: true,
    errorKind: null,
    observationCount: 4200,
    rejectedCount: 3,
    failure: null,
    detail: null,
    unmappedCount: 2,
    ...overrides,
  };
}

function sideKey(value: SideSnapshot): string {
  return [value.game, value.itemId, value.market, value.side].join('\u0000');
}

/** Sides in key order, so results compare independently of the store's read order. */
export function sortSides(values: SideSnapshot[]): SideSnapshot[] {
  return [...values].sort((a, b) => (sideKey(a) < sideKey(b) ? -1 : 1));
}

export function sortListings(values: ListingRecord[]): ListingRecord[] {
  const key = (value: ListingRecord) => `${value.market}\u0000${value.listingId}`;
  return [...values].sort((a, b) => (key(a) < key(b) ? -1 : 1));
}

/** Breaks a record on purpose: a NOT NULL field set to null, which no store may accept. */
export function withNull<T extends object>(record: T, field: keyof T): T {
  return { ...record, [field]: null };
}
