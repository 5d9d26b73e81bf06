/**
 * Which wire format each market speaks, and the parser for it. Real adapters and the simulator
 * both parse through `parseMarketBody`, so the simulator exercises the same code.
 */
import type { FetchContext, ParseResult } from '../market-adapter.ts';
import type { MarketId } from '../../domain/markets.ts';
import { parseBuffGoods } from './buff-goods.ts';
import { parseCentsLadder } from './cents-ladder.ts';
import type { FormatParser } from './common.ts';
import { parseSkinportItems } from './skinport-items.ts';
import { parseUsdDecimal } from './usd-decimal.ts';
import { parseWaxpeerPrices } from './waxpeer-prices.ts';

export type FormatId =
  'buff-goods' | 'skinport-items' | 'waxpeer-prices' | 'cents-ladder' | 'usd-decimal';

export const FORMAT_BY_MARKET: Readonly<Record<MarketId, FormatId>> = {
  steamcommunity: 'cents-ladder',
  skinport: 'skinport-items',
  buff163: 'buff-goods',
  csfloat: 'cents-ladder',
  dmarket: 'cents-ladder',
  marketcsgo: 'usd-decimal',
  waxpeer: 'waxpeer-prices',
  csdeals: 'usd-decimal',
  'lis-skins': 'usd-decimal',
  whitemarket: 'usd-decimal',
  skindeck: 'usd-decimal',
  cstrade: 'usd-decimal',
  itrade: 'usd-decimal',
  swapgg: 'usd-decimal',
  lootfarm: 'usd-decimal',
  avanmarket: 'usd-decimal',
  'tradeit-store': 'cents-ladder',
  'tradeit-trade': 'cents-ladder',
  rusttm: 'usd-decimal',
  rustskins: 'usd-decimal',
  'mannco-store': 'usd-decimal',
};

export const FORMAT_PARSERS: Readonly<Record<FormatId, FormatParser>> = {
  'buff-goods': parseBuffGoods,
  'skinport-items': parseSkinportItems,
  'waxpeer-prices': parseWaxpeerPrices,
  'cents-ladder': parseCentsLadder,
  'usd-decimal': parseUsdDecimal,
};

/** Parses one market's body with its format's parser (pure; never throws on bad input). */
export function parseMarketBody(market: MarketId, body: unknown, ctx: FetchContext): ParseResult {
  try {
    return FORMAT_PARSERS[FORMAT_BY_MARKET[market]](body, { ...ctx, market });
  } catch (error) {
    return { observations: [], rejected: [{ reason: 'malformed', detail: String(error) }] };
  }
}
