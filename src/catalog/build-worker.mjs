// Catalog build thread: registers the TypeScript loader, builds the catalog data, posts it on
// the port it was given and wakes the waiting thread; any failure is posted the same way.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

const { port, signal } = workerData;
try {
  register();
  const { buildCatalogData } = await import('./build-data.ts');
  port.postMessage({ data: buildCatalogData() });
} catch (error) {
  port.postMessage({
    error: error instanceof Error ? (error.stack ?? error.message) : String(error),
  });
} finally {
  port.close();
  Atomics.store(signal, 0, 1);
  Atomics.notify(signal, 0);
}
