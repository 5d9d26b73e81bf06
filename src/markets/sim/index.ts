/**
 * The market simulator's public face: live adapters (one per market id, answering in each
 * upstream's shape through its live parsers, deterministic from seed and time), the history
 * backfill built from the same price model, and the simulated world's FX rates for ingest to
 * convert with.
 */
export { createSimAdapters, SimMarketAdapter, type SimAdapterOptions } from './adapters.ts';
export { simBackfill, type SimBackfillOptions } from './backfill.ts';
export type { SimCondition } from './faults.ts';
export { SIM_FX_BASE, simFxRates } from './price-model.ts';
export type { SimCatalogs } from './world.ts';
