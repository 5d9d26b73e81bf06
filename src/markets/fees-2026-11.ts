/**
 * Fee model `2026-11`: published fee estimates per market, as data. Every number carries its
 * source and whether it is an assumption. Numbers come from ../shared/reference/markets.md
 * (gathered mid-2026); where that file has nothing, a documented default is used and flagged.
 * A JSON file can override any entry at boot (see fees.ts), without code changes.
 */
import type { FeeModel, FeeSource, MarketFees } from './fee-model.ts';
import { MARKET_IDS, type MarketId } from '../domain/markets.ts';

export const FEE_MODEL_VERSION = '2026-11';

/**
 * Seller fee used where no market-specific figure is known: 5%, the median of the published
 * seller fees we do know (2%, 2.5%, 3%, 5%, 5%, 7%, 12%). Always flagged as assumed.
 */
export const DEFAULT_SELLER_FEE_BPS = 500;

const MD = 'markets.md';

const known = (source: string): FeeSource => ({ source, assumed: false });
const assumed = (source: string): FeeSource => ({ source, assumed: true });

const NO_BUYER_FEE = known(
  `${MD}: only a seller fee is published; the listed price is the price paid`,
);
const NO_BUYER_FEE_ASSUMED = assumed('no buyer fee published; assumed none');
const NO_WITHDRAWAL_FEE = assumed(`${MD}: withdrawal fee not found; assumed 0`);
const CASH_ASSUMED = assumed('assumed withdrawable (cash marketplace)');

function cashMarket(
  sellerFeeBps: number,
  sellerSource: FeeSource,
  other: Partial<MarketFees['sources']> = {},
): MarketFees {
  return {
    sellerFeeBps,
    buyerFeeBps: 0,
    withdrawalFlatCents: 0,
    cashWithdrawable: true,
    sources: {
      sellerFeeBps: sellerSource,
      buyerFeeBps: sellerSource.assumed ? NO_BUYER_FEE_ASSUMED : NO_BUYER_FEE,
      withdrawalFlatCents: NO_WITHDRAWAL_FEE,
      cashWithdrawable: CASH_ASSUMED,
      ...other,
    },
  };
}

const defaultMarket = () =>
  cashMarket(DEFAULT_SELLER_FEE_BPS, assumed('no published fee found; default 5% (median)'));

/**
 * Steam takes 5% + 10% of the seller's take (about 13.04% of the buyer price). Per the spec we
 * model it as a flat 15% of the gross price: slightly conservative, and the figure clients of
 * the public service see. Proceeds are wallet credit: nothing to withdraw, not cash.
 */
const STEAM: MarketFees = {
  sellerFeeBps: 1500,
  buyerFeeBps: 0,
  withdrawalFlatCents: 0,
  cashWithdrawable: false,
  sources: {
    sellerFeeBps: known(
      'spec: wallet-credit market modelled with a 15% seller fee (actual: 5% + 10% of the seller take)',
    ),
    buyerFeeBps: known(`${MD}: fees are taken from the seller's proceeds`),
    withdrawalFlatCents: known(`${MD}: proceeds are wallet credit; nothing to withdraw`),
    cashWithdrawable: known(`${MD}: wallet funds cannot be cashed out`),
  },
};

const SPECIFIC: Partial<Record<MarketId, MarketFees>> = {
  steamcommunity: STEAM,
  csfloat: cashMarket(200, known(`${MD}: 2% [oss: PLATFORM_FEES configs]`), {
    cashWithdrawable: known(`${MD}: Stripe withdrawal to bank, card or USDC`),
  }),
  buff163: cashMarket(250, known(`${MD}: 2.5% [oss configs]`)),
  dmarket: cashMarket(700, known(`${MD}: 7% default [oss]`), {
    buyerFeeBps: assumed(
      `${MD}: card 3.85% + $0.30 / crypto 2% surcharges on deposits, not modelled`,
    ),
    cashWithdrawable: known(`${MD}: withdrawal via Payoneer, Skrill, PayPal, card or wire`),
  }),
  marketcsgo: cashMarket(500, known(`${MD}: 5% default [oss]`), {
    cashWithdrawable: known(`${MD}: cash withdrawal "at any time"`),
  }),
  skinport: cashMarket(1200, assumed(`${MD}: 12% [oss/?]; another config says 6%`), {
    cashWithdrawable: known(`${MD}: bank/Payoneer payouts, proceeds are cash`),
  }),
  waxpeer: cashMarket(500, assumed(`${MD}: 2% / 5% / 6% [conflicting]; middle value taken`)),
  'lis-skins': cashMarket(300, assumed(`${MD}: 3% [oss, weak]`)),
  rusttm: cashMarket(500, assumed(`${MD}: sister site of marketcsgo; its 5% assumed`)),
};

function buildTable(): Record<MarketId, MarketFees> {
  const table = {} as Record<MarketId, MarketFees>;
  for (const id of MARKET_IDS) table[id] = SPECIFIC[id] ?? defaultMarket();
  return table;
}

export const FEE_MODEL_2026_11: FeeModel = {
  version: FEE_MODEL_VERSION,
  markets: buildTable(),
};
