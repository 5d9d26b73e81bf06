/**
 * The explicit list of markets as data: name, games, native currency and units, expected refresh
 * cadence, capabilities and the upstream docs each parser follows (facts from
 * /work/shared/reference/markets.md). Health is judged against `cadenceMs`, so each cadence is
 * what a polite poller of that source achieves, and every one stays well under the 30-minute
 * stale window:
 * - 1 min: csfloat (bulk price-list, generous limits), waxpeer (`/prices`, 60 req/min wrapper cap)
 * - 2 min: dmarket (~30 req/min, batched titles), marketcsgo (public JSON export)
 * - 2.5 min: buff163 (80 goods per page behind a session cookie; pages crawled in turn)
 * - 5 min: steamcommunity (histogram ~20 req/min), skinport (cached 5 min, 8 req / 5 min),
 *   csdeals, tradeit-store, tradeit-trade
 * - 10 min: lis-skins and whitemarket (static exports), skindeck, cstrade, swapgg, lootfarm
 * - 15 min: itrade, avanmarket, rusttm, rustskins (SCMM polls the Rust sites every 30 min)
 * - 20 min: mannco-store
 */
import type { Game } from '../domain/games.ts';
import { MARKETS_BY_GAME, type MarketId } from '../domain/markets.ts';
import { MINUTE } from '../domain/clock.ts';
import type { MarketCapabilities, MarketInfo } from './market-adapter.ts';

type Capability = keyof MarketCapabilities;

function gamesOf(id: MarketId): Game[] {
  return (Object.keys(MARKETS_BY_GAME) as Game[]).filter((game) =>
    MARKETS_BY_GAME[game].includes(id),
  );
}

/** Asks everywhere; the rest as listed. */
function capabilities(...extra: Capability[]): MarketCapabilities {
  const has = (name: Capability) => extra.includes(name);
  return {
    asks: true,
    bids: has('bids'),
    sales: has('sales'),
    listings: has('listings'),
    floats: has('floats'),
  };
}

interface Entry {
  displayName: string;
  currency: string;
  scale: number;
  cadenceMs: number;
  capabilities: MarketCapabilities;
  docsUrl: string | null;
}

const USD_CENTS = { currency: 'USD', scale: 100 };
const SCMM = 'https://github.com/Steam-Community-Market-Manager/SCMM';
const FLOAT_MARKET = capabilities('bids', 'sales', 'listings', 'floats');

const ENTRIES: Readonly<Record<MarketId, Entry>> = {
  steamcommunity: {
    displayName: 'Steam Community Market',
    ...USD_CENTS,
    cadenceMs: 5 * MINUTE,
    capabilities: capabilities('bids', 'sales'),
    docsUrl: `${SCMM}/tree/main/SCMM.Steam.Data.Models/Community`,
  },
  skinport: {
    displayName: 'Skinport',
    currency: 'EUR',
    scale: 100,
    cadenceMs: 5 * MINUTE,
    capabilities: capabilities('sales'),
    docsUrl: 'https://docs.skinport.com/items',
  },
  buff163: {
    displayName: 'BUFF163',
    currency: 'CNY',
    scale: 100,
    cadenceMs: 2.5 * MINUTE,
    capabilities: FLOAT_MARKET,
    docsUrl: 'https://github.com/softwerk-org/csinvest-connector/tree/main/src/connector/buff163',
  },
  csfloat: {
    displayName: 'CSFloat',
    ...USD_CENTS,
    cadenceMs: 1 * MINUTE,
    capabilities: FLOAT_MARKET,
    docsUrl: 'https://docs.csfloat.com/',
  },
  dmarket: {
    displayName: 'DMarket',
    ...USD_CENTS,
    cadenceMs: 2 * MINUTE,
    capabilities: FLOAT_MARKET,
    docsUrl: 'https://docs.dmarket.com/v1/swagger.html',
  },
  marketcsgo: {
    displayName: 'Market.CSGO',
    ...USD_CENTS,
    cadenceMs: 2 * MINUTE,
    capabilities: capabilities('bids', 'sales'),
    docsUrl: 'https://market.csgo.com/en/api',
  },
  waxpeer: {
    displayName: 'Waxpeer',
    currency: 'USD',
    scale: 1000,
    cadenceMs: 1 * MINUTE,
    capabilities: FLOAT_MARKET,
    docsUrl: 'https://api.waxpeer.com/docs',
  },
  csdeals: {
    displayName: 'CS.Deals',
    ...USD_CENTS,
    cadenceMs: 5 * MINUTE,
    capabilities: capabilities('sales'),
    docsUrl: 'https://cs.deals/API-documentation',
  },
  'lis-skins': {
    displayName: 'LIS-SKINS',
    ...USD_CENTS,
    cadenceMs: 10 * MINUTE,
    capabilities: capabilities('listings', 'floats'),
    docsUrl: 'https://lis-skins.com/market_export_json/csgo.json',
  },
  whitemarket: {
    displayName: 'White.market',
    ...USD_CENTS,
    cadenceMs: 10 * MINUTE,
    capabilities: capabilities('sales', 'listings', 'floats'),
    docsUrl: 'https://api.white.market/docs_partner',
  },
  skindeck: {
    displayName: 'SkinDeck',
    ...USD_CENTS,
    cadenceMs: 10 * MINUTE,
    capabilities: capabilities(),
    docsUrl: null,
  },
  cstrade: {
    displayName: 'CS.TRADE',
    ...USD_CENTS,
    cadenceMs: 10 * MINUTE,
    capabilities: capabilities(),
    docsUrl: SCMM,
  },
  itrade: {
    displayName: 'iTrade.gg',
    ...USD_CENTS,
    cadenceMs: 15 * MINUTE,
    capabilities: capabilities(),
    docsUrl: SCMM,
  },
  swapgg: {
    displayName: 'Swap.gg',
    ...USD_CENTS,
    cadenceMs: 10 * MINUTE,
    capabilities: capabilities(),
    docsUrl: SCMM,
  },
  lootfarm: {
    displayName: 'LOOT.FARM',
    ...USD_CENTS,
    cadenceMs: 10 * MINUTE,
    capabilities: capabilities(),
    docsUrl: SCMM,
  },
  avanmarket: {
    displayName: 'Avan.market',
    ...USD_CENTS,
    cadenceMs: 15 * MINUTE,
    capabilities: capabilities('listings', 'floats'),
    docsUrl: 'https://github.com/GODrums/BetterFloat/blob/main/src/lib/@typings/AvanTypes.d.ts',
  },
  'tradeit-store': {
    displayName: 'Tradeit.gg Store',
    ...USD_CENTS,
    cadenceMs: 5 * MINUTE,
    capabilities: capabilities(),
    docsUrl: SCMM,
  },
  'tradeit-trade': {
    displayName: 'Tradeit.gg Trade',
    ...USD_CENTS,
    cadenceMs: 5 * MINUTE,
    capabilities: capabilities(),
    docsUrl: SCMM,
  },
  rusttm: {
    displayName: 'RUST.TM',
    ...USD_CENTS,
    cadenceMs: 15 * MINUTE,
    capabilities: capabilities(),
    docsUrl: SCMM,
  },
  rustskins: {
    displayName: 'RustSkins',
    ...USD_CENTS,
    cadenceMs: 15 * MINUTE,
    capabilities: capabilities(),
    docsUrl: SCMM,
  },
  'mannco-store': {
    displayName: 'Mannco.store',
    ...USD_CENTS,
    cadenceMs: 20 * MINUTE,
    capabilities: capabilities(),
    docsUrl: SCMM,
  },
};

export const MARKET_INFO: Readonly<Record<MarketId, MarketInfo>> = Object.fromEntries(
  Object.entries(ENTRIES).map(([id, entry]) => [
    id,
    Object.freeze({ id: id as MarketId, games: Object.freeze(gamesOf(id as MarketId)), ...entry }),
  ]),
) as Record<MarketId, MarketInfo>;

export function marketInfo(id: MarketId): MarketInfo {
  return MARKET_INFO[id];
}
