/**
 * Sale records as the book keeps them. A batch from the ingest worker arrives as a structured
 * clone, which gives every sale a dictionary-backed object of its own and fresh copies of its
 * item name, market and currency, and a restore builds one object per stored row; the book
 * keeps sales for 90 days (about 410k after the default backfill), so it rebuilds each as a
 * plain record over strings it has seen before: about 120 bytes a sale instead of 270.
 */
import type { IngestBatch, SaleRecord } from '../domain/quote.ts';
import { StringPool } from '../domain/string-pool.ts';

export { StringPool };

export function compactSale(sale: SaleRecord, pool: StringPool): SaleRecord {
  return {
    game: pool.intern(sale.game),
    itemId: pool.intern(sale.itemId),
    market: pool.intern(sale.market),
    price: sale.price,
    quantity: sale.quantity,
    soldAt: sale.soldAt,
    ingestedAt: sale.ingestedAt,
    originalCurrency: pool.intern(sale.originalCurrency),
  };
}

/** The batch with its sales rebuilt (sides, listings and statistics as they came). */
export function compactSales(batch: IngestBatch, pool: StringPool): IngestBatch {
  if (batch.sales.length === 0) return batch;
  return { ...batch, sales: batch.sales.map((sale) => compactSale(sale, pool)) };
}
