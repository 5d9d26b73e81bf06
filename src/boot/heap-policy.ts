/**
 * How far a `pricing serve` process lets its V8 heaps grow between full collections. By default
 * V8 lets an old generation grow to up to four times what the last full collection kept (the
 * factor it picks rises with the heap limit, 4 GB on the HTTP thread of a machine with memory to
 * spare): garbage waiting for a collection, most of the HTTP thread's committed heap. A fixed
 * factor of 1 + HEAP_GROWING_PERCENT / 100 starts full collections sooner, for every thread of
 * the process: the flag is process-wide and read at each collection, so setting it once the
 * start is done (`pricing serve`) covers the ingest worker too. Measured on the default start (loaded machine, first 12
 * minutes): the HTTP thread's heap peaked at 239 MB instead of 287 MB; at 25 % it was 229 MB
 * but its full-collection pauses added up to 10.0 s instead of 1.7 s (2.8 s at 50 %). The
 * footprint bench (BENCHMARKS.md) shows the heaps per thread.
 *
 * Young-generation collections run on the thread that owns the heap (`--no-parallel-scavenge`,
 * also process-wide and read at each collection): by default V8's helper threads, at the
 * process's priority, did most of the ingest worker's scavenges, so its poll bursts took the
 * HTTP thread's core at nice 0 instead of at the worker's nice 10. Measured on the default start,
 * each server on a core of its own, 240 s without requests (2026-12-01): the helper threads
 * 65 ms of CPU a second instead of 93, the ingest thread 96 instead of 87, the process 7% less.
 * `PRICING_PARALLEL_SCAVENGE=on` keeps V8's default.
 */
import v8 from 'node:v8';

export const HEAP_GROWING_PERCENT = 50;

export function applyHeapPolicy(): void {
  v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  if (process.env.PRICING_PARALLEL_SCAVENGE !== 'on')
    v8.setFlagsFromString('--no-parallel-scavenge');
}
