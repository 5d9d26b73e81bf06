// A stand-in ingest worker for ingest-host.test.ts. The first one asked for `demand` (no marker
// file yet) fills its heap until Node ends it; later ones answer like the real worker.
import { existsSync, writeFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';

const { marker, beforeReady } = workerData.config;
const fillHeap = () => {
  const hoard = [];
  for (;;) hoard.push(new Array(100_000).fill(hoard.length));
};

if (beforeReady) fillHeap();
parentPort.postMessage({ type: 'ready' });
parentPort.on('message', (message) => {
  if (message.type === 'demand' && !existsSync(marker)) {
    writeFileSync(marker, 'ran out of heap once');
    fillHeap();
  }
  if (message.type === 'backfill') parentPort.postMessage({ type: 'backfilled' });
  if (message.type === 'stop') parentPort.postMessage({ type: 'stopped' });
});
