/**
 * How far a `pricing serve` process lets its V8 heaps grow between full collections. By default
 * V8 lets an old generation grow to up to four times what the last full collection kept (the
 * factor it picks rises with the heap limit, 4 GB on the HTTP thread of a machine with memory to
 * spare): garbage waiting for a collection, most of the HTTP thread's committed heap. A fixed
 * factor of 1 + HEAP_GROWING_PERCENT / 100 starts full collections sooner (incremental and
 * concurrent marking, the pauses stay short), for every thread of the process: the flag is
 * process-wide and read at each collection, so setting it at start covers the ingest worker
 * too. The footprint bench (BENCHMARKS.md) shows the heaps per thread with it.
 */
import v8 from 'node:v8';

export const HEAP_GROWING_PERCENT = 25;

export function applyHeapPolicy(): void {
  v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
