/**
 * Runs the history read latencies in a process of its own, on a store file the history
 * benchmark built (argv[2]), so the reads do not pay for the builder's heap.
 */
import { loadCatalogs } from '../src/catalog/index.ts';
import { manualClock } from '../src/domain/clock.ts';
import { createSqlitePriceStore } from '../src/store/sqlite/sqlite-price-store.ts';
import { benchHistoryReads } from './history-reads.ts';

const [path, endMs] = process.argv.slice(2);
const store = createSqlitePriceStore({ path: path! });
await store.init();
await benchHistoryReads(store, loadCatalogs(), manualClock(Number(endMs)));
await store.close();
