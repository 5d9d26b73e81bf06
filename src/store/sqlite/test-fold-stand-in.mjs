// A stand-in fold thread for fold-thread-host.test.ts, speaking the fold thread's messages.
// `path` names a marker file: while it is missing, the first flush writes it and fills the heap
// until Node ends the thread; later threads answer flushes. A path ending in `.early` fills the
// heap before the thread is ready.
import { existsSync, writeFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';

const { path } = workerData;
const fillHeap = () => {
  const hoard = [];
  for (;;) hoard.push(new Array(100_000).fill(hoard.length));
};

if (path.endsWith('.early')) fillHeap();
parentPort.postMessage({ type: 'ready' });
parentPort.on('message', (message) => {
  if (message.type === 'flush') {
    if (!existsSync(path)) {
      writeFileSync(path, 'ran out of heap once');
      fillHeap();
    }
    parentPort.postMessage({ type: 'flushed', id: message.id, through: 42, error: null });
  }
  if (message.type === 'stop') parentPort.postMessage({ type: 'stopped' });
});
