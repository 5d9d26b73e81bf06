/**
 * `feeNotes` of an arbitrage opportunity: which fee numbers were applied (and which of them
 * are assumptions), the fee model version, and a `stale_quote:<buy|sell>:<market>` flag for
 * every stale leg. One string (the public client types it so), the notes joined by `; `; no
 * note contains a `;`.
 */
import type { MarketFees } from '../markets/fees.ts';
import type { MarketId } from '../domain/markets.ts';

const ASSUMED = ' (assumed)';
export const FEE_NOTE_SEPARATOR = '; ';

/** What the notes read of a leg (an ArbitrageLeg). */
interface NotedLeg {
  market: MarketId;
  isStale: boolean;
}

export function arbitrageFeeNotes(
  buy: NotedLeg,
  sell: NotedLeg,
  buyFees: MarketFees,
  sellFees: MarketFees,
  feeModelVersion: string,
): string {
  const mark = (assumed: boolean) => (assumed ? ASSUMED : '');
  const notes = [
    `buy ${buy.market}: buyer fee ${buyFees.buyerFeeBps} bps${mark(buyFees.sources.buyerFeeBps.assumed)}`,
    `sell ${sell.market}: seller fee ${sellFees.sellerFeeBps} bps${mark(sellFees.sources.sellerFeeBps.assumed)}`,
    `sell ${sell.market}: withdrawal ${sellFees.withdrawalFlatCents} cents per withdrawal${mark(sellFees.sources.withdrawalFlatCents.assumed)}`,
    `fee model ${feeModelVersion}`,
  ];
  if (buy.isStale) notes.push(`stale_quote:buy:${buy.market}`);
  if (sell.isStale) notes.push(`stale_quote:sell:${sell.market}`);
  return notes.map((note) => note.replaceAll(';', ',')).join(FEE_NOTE_SEPARATOR);
}
