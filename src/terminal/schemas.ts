/**
 * Response schemas of the terminal's keyless routes, composed from the API's own schemas (the
 * pricing snapshot, NBBO, depth, recommendation, history, health, freshness, latency, arbitrage)
 * so the browser code is typed against exactly what the API serves (src/web/api.ts).
 */
import { Type } from '@sinclair/typebox';
import { ArbitrageOpportunities } from '../http/schemas/arbitrage.ts';
import { StringEnum } from '../http/schemas/common.ts';
import { Depth } from '../http/schemas/depth.ts';
import { Nbbo } from '../http/schemas/nbbo.ts';
import { PricingSnapshot } from '../http/schemas/pricing.ts';
import { Recommendation } from '../http/schemas/recommendation.ts';
import { FreshnessReport, MarketHealthRows, MarketLatencyReport } from '../http/schemas/status.ts';
import { ItemExtras } from './extras.ts';

export const TERMINAL_INTERVALS = ['10m', '1h', '1d'] as const;
export type TerminalInterval = (typeof TERMINAL_INTERVALS)[number];

export const SearchRow = Type.Object({
  canonicalItemId: Type.String(),
  name: Type.String(),
  game: StringEnum(['cs2', 'rust'] as const),
  bestAsk: PricingSnapshot.properties.bestAsk,
  bestBid: PricingSnapshot.properties.bestBid,
  spreadBps: PricingSnapshot.properties.spreadBps,
  marketCount: Type.Integer(),
});

export const SearchResults = Type.Object({
  results: Type.Array(SearchRow, { description: 'At most 10 quoted items, catalog order.' }),
});

/** Catalog facts shown on the item page; sparse like schema records. */
export const ItemFacts = Type.Object({
  id: Type.String(),
  game: StringEnum(['cs2', 'rust'] as const),
  marketHashName: Type.String(),
  category: Type.String(),
  weapon: Type.Optional(Type.String()),
  finish: Type.Optional(Type.String()),
  rarity: Type.Optional(Type.String()),
  wear: Type.Optional(Type.String()),
  stattrak: Type.Optional(Type.Boolean()),
  souvenir: Type.Optional(Type.Boolean()),
  phase: Type.Optional(Type.String()),
  floatRange: Type.Optional(Type.Object({ min: Type.Number(), max: Type.Number() })),
  collections: Type.Optional(Type.Array(Type.String())),
  image: Type.Optional(Type.String()),
});

export const ItemView = Type.Object({
  item: ItemFacts,
  pricing: PricingSnapshot,
  nbbo: Nbbo,
  depth: Depth,
  recommendation: Recommendation,
  ...ItemExtras,
  staleAfterSeconds: Type.Integer({ description: 'Quotes older than this are stale (1800).' }),
});

export const MarketsBoard = Type.Object({
  health: MarketHealthRows,
  freshness: FreshnessReport,
  latency: MarketLatencyReport,
});

export const ArbitrageView = ArbitrageOpportunities;
