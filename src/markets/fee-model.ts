/**
 * The shape of a fee model (fees.ts loads and overrides one; fees-2026-11.ts is the built-in
 * table): per market the seller and buyer fees in bps, the flat withdrawal fee in cents and
 * whether proceeds are cash, each number with its source.
 */
import type { MarketId } from '../domain/markets.ts';
import type { Bps, Cents } from '../domain/money.ts';

export interface FeeSource {
  source: string;
  /** True when the number is a guess or the sources disagree. */
  assumed: boolean;
}

export interface MarketFees {
  /** Commission on the gross sale price. */
  sellerFeeBps: Bps;
  /** Surcharge on top of the listed price paid by buyers (0 when the listed price is paid). */
  buyerFeeBps: Bps;
  /** Flat fee per cash withdrawal of proceeds. */
  withdrawalFlatCents: Cents;
  /** False for wallet credit that cannot be cashed out. */
  cashWithdrawable: boolean;
  sources: Record<FeeField, FeeSource>;
}

export type FeeField = 'sellerFeeBps' | 'buyerFeeBps' | 'withdrawalFlatCents' | 'cashWithdrawable';
export const FEE_FIELDS: readonly FeeField[] = [
  'sellerFeeBps',
  'buyerFeeBps',
  'withdrawalFlatCents',
  'cashWithdrawable',
];

export interface FeeModel {
  version: string;
  markets: Readonly<Record<MarketId, MarketFees>>;
}
