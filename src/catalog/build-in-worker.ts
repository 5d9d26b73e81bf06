/**
 * Builds the catalog data on a short-lived thread and waits for it synchronously (the
 * MessagePort + Atomics.wait pattern), so `loadCatalogs` stays synchronous while the item-data
 * package (@ianlucas/cs2-lib: ~31 MB of heap and ~110 MB of RSS of module graph, which an ES
 * module can never drop once imported) lives only in that thread and is freed when it exits.
 * What arrives is a structured clone: plain items holding no reference into the package.
 */
import { MessageChannel, receiveMessageOnPort, Worker } from 'node:worker_threads';
import type { CatalogData } from './catalog-data.ts';
import { CatalogBuildError } from './finalize.ts';

/** A build takes about a second; this only bounds a thread that never answers. */
const BUILD_TIMEOUT_MS = 120_000;

type Outcome = { data: CatalogData } | { error: string };

export interface PendingCatalogBuild {
  /** Blocks until the build thread answers; call once. */
  wait(): CatalogData;
}

/**
 * Starts the build thread (build-worker.mjs beside this module: in src/, or the server bundle's
 * entry of that name); the caller may do other work before it waits.
 */
export function startCatalogBuild(): PendingCatalogBuild {
  const signal = new Int32Array(new SharedArrayBuffer(4));
  const { port1, port2 } = new MessageChannel();
  const worker = new Worker(new URL('./build-worker.mjs', import.meta.url), {
    workerData: { port: port2, signal },
    transferList: [port2],
  });
  return {
    wait() {
      try {
        const waited = Atomics.wait(signal, 0, 0, BUILD_TIMEOUT_MS);
        const outcome = receiveMessageOnPort(port1)?.message as Outcome | undefined;
        if (outcome && 'data' in outcome) return outcome.data;
        const reason = outcome?.error ?? (waited === 'timed-out' ? 'timed out' : 'no answer');
        throw new CatalogBuildError(`catalog build thread failed: ${reason}`);
      } finally {
        port1.close();
        void worker.terminate();
      }
    },
  };
}

export function buildCatalogDataInWorker(): CatalogData {
  return startCatalogBuild().wait();
}
