// Preloaded into the footprint bench's server (NODE_OPTIONS=--import, so every thread runs it):
// every THREAD_HEAPS_MS each thread appends one JSON line with its V8 heap (committed, used,
// the largest committed so far) and its array buffers to THREAD_HEAPS_FILE. A thread busy in a
// long synchronous step writes nothing until it yields.
import { appendFileSync } from 'node:fs';
import { setInterval } from 'node:timers';
import v8 from 'node:v8';
import { isMainThread, threadId, workerData } from 'node:worker_threads';

const file = process.env.THREAD_HEAPS_FILE;
const everyMs = Number(process.env.THREAD_HEAPS_MS ?? 5000);

/** The server's threads by what they are handed: the ingest worker gets catalogs. */
function threadName() {
  if (isMainThread) return 'main';
  const data = workerData !== null && typeof workerData === 'object' ? workerData : {};
  if ('catalogs' in data) return 'ingest';
  return `worker ${threadId}`;
}

if (file) {
  const thread = threadName();
  const mb = (bytes) => Math.round(bytes / 1048576);
  let peak = 0;
  setInterval(() => {
    const heap = v8.getHeapStatistics();
    peak = Math.max(peak, heap.total_heap_size);
    const line = {
      thread,
      at: Date.now(),
      heapMb: mb(heap.total_heap_size),
      usedMb: mb(heap.used_heap_size),
      peakMb: mb(peak),
      arrayBuffersMb: mb(process.memoryUsage().arrayBuffers),
    };
    appendFileSync(file, `${JSON.stringify(line)}\n`);
  }, everyMs).unref();
}
