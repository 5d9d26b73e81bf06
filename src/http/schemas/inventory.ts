/** TypeBox schemas of the inventory routes (the official client's inventory types, plus valuation). */
import { Type } from '@sinclair/typebox';
import { INVENTORY_STATUSES } from '../../domain/inventory.ts';
import { Nullable, NullableObject, StringEnum, Timestamp } from './common.ts';

const STEAM64 = '^7656119[0-9]{10}$';

export const SteamId = Type.String({
  pattern: STEAM64,
  description: "The inventory owner's 17-digit Steam64 id.",
});

const common = {
  targetSteamId: SteamId,
  contextId: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 2_147_483_647,
      description: 'Steam inventory context (2).',
    }),
  ),
  tradableOnly: Type.Optional(Type.Boolean({ description: 'Keep only tradable items (false).' })),
};

export const FetchBody = Type.Object(
  {
    ...common,
    appId: Type.Optional(
      Type.Union([Type.Literal(730), Type.Literal(252490)], {
        description: 'Steam app id: 730 for CS2 (default), 252490 for Rust.',
      }),
    ),
  },
  { additionalProperties: false },
);

export const FetchAdvancedBody = Type.Object(
  {
    ...common,
    appId: Type.Optional(Type.Literal(730, { description: 'CS2 only.' })),
    maxInspections: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 500, description: 'Items to inspect, 1–500 (100).' }),
    ),
  },
  { additionalProperties: false },
);

export const SnapshotParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
export const HistoryParams = Type.Object({ steamId: SteamId });
export const HistoryQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, description: 'Page size (10).' })),
  offset: Type.Optional(
    Type.Integer({ minimum: 0, maximum: 10_000, description: 'Rows to skip (0).' }),
  ),
});

const Sticker = Type.Object({
  slot: Type.Integer(),
  name: Type.String(),
  wear: Type.Optional(Type.Number()),
  stickerId: Type.Optional(Type.Integer()),
});

export const InventoryItem = Type.Object({
  assetId: Type.String(),
  classId: Type.String(),
  instanceId: Type.String(),
  marketHashName: Type.String(),
  marketName: Type.String(),
  iconUrl: Type.Optional(Type.String()),
  inspectLink: Type.Optional(Type.String()),
  tradable: Type.Boolean(),
  marketable: Type.Boolean(),
  exterior: Type.Optional(Type.String()),
  rarity: Type.Optional(Type.String()),
  weaponType: Type.Optional(Type.String()),
  quality: Type.Optional(Type.String()),
  floatValue: Type.Optional(Type.Number()),
  paintSeed: Type.Optional(Type.Integer()),
  paintIndex: Type.Optional(Type.Integer()),
  stickers: Type.Optional(Type.Array(Sticker)),
  inspectedAt: Type.Optional(Timestamp()),
  amount: Type.Integer({ description: 'Units in this stack (1 for skins).' }),
  canonicalItemId: Nullable(Type.String({ description: 'Our catalog id; null when unresolved.' })),
});

const Quote = { market: Type.String(), price: Type.Integer() };

export const ItemValuation = Type.Object({
  assetId: Type.String(),
  marketHashName: Type.String(),
  canonicalItemId: Nullable(Type.String()),
  catalogName: Nullable(
    Type.String({ description: "The catalog's name of the item valued (e.g. a Doppler's phase)." }),
  ),
  units: Type.Integer(),
  bestAsk: NullableObject(Quote, 'Lowest ask across markets, cents.'),
  bestCashBid: NullableObject(
    { ...Quote, rawPrice: Type.Integer() },
    'Best cash-executable bid: price is what the seller nets after commission and withdrawal fee.',
  ),
  suggestedPrice: Nullable(Type.Integer()),
  liquidityBadge: Nullable(Type.String()),
  medianTimeToSellHours: Nullable(Type.Number()),
  isStale: Type.Boolean(),
});

export const Valuation = Type.Object({
  items: Type.Array(ItemValuation),
  listValueCents: Nullable(Type.Integer()),
  instantCashCents: Nullable(Type.Integer()),
  walletValueCents: Nullable(Type.Integer()),
  unpricedCount: Type.Integer(),
  staleCount: Type.Integer(),
  notMarketableCount: Type.Integer(),
  bestCashMarket: NullableObject({
    market: Type.String(),
    cashCents: Type.Integer(),
    itemsCovered: Type.Integer(),
  }),
  calculatedAt: Timestamp(),
});

const statusFields = {
  id: Type.String(),
  status: StringEnum(INVENTORY_STATUSES),
  itemCount: Type.Optional(Type.Integer()),
  inspectedCount: Type.Optional(Type.Integer()),
  unresolvedCount: Type.Optional(Type.Integer()),
  error: Type.Optional(Type.String()),
};

export const SnapshotStatus = Type.Object(statusFields);

const summaryFields = {
  ...statusFields,
  targetSteamId: Type.String(),
  appId: Type.Integer(),
  contextId: Type.Integer(),
  createdAt: Timestamp(),
  completedAt: Type.Optional(Timestamp()),
};

export const SnapshotSummary = Type.Object(summaryFields);

export const Snapshot = Type.Object({
  ...summaryFields,
  items: Type.Optional(Type.Array(InventoryItem)),
  valuation: Type.Optional(Valuation),
});

export const History = Type.Object({
  snapshots: Type.Array(SnapshotSummary),
  total: Type.Integer(),
});
