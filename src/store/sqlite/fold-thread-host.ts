/**
 * Starts a store's fold thread (fold-thread.ts) and talks to it: flush() asks for everything
 * journaled so far to be folded and resolves with the last journal id folded; stop() folds
 * what is left and ends the thread. Errors of the thread's own periodic folds go to onError
 * (the entries stay in the journal and are folded by a later attempt).
 */
import { Worker } from 'node:worker_threads';
import type { FoldHostMessage, FoldThreadConfig, FoldThreadMessage } from './fold-messages.ts';

/** Folding allocates many short-lived deltas: a larger young generation, as ingest has. */
const FOLD_YOUNG_GENERATION_MB = 192;

export interface FoldThread {
  flush(): Promise<number>;
  stop(): Promise<void>;
}

interface Waiting {
  resolve: (through: number) => void;
  reject: (error: Error) => void;
}

export function startFoldThread(
  config: FoldThreadConfig,
  onError: (message: string) => void,
): Promise<FoldThread> {
  const worker = new Worker(new URL('./fold-thread-bootstrap.mjs', import.meta.url), {
    workerData: config,
    resourceLimits: { maxYoungGenerationSizeMb: FOLD_YOUNG_GENERATION_MB },
  });
  const waiting = new Map<number, Waiting>();
  let nextId = 1;
  let stopped: (() => void) | null = null;
  let exited = false;
  const send = (message: FoldHostMessage) => worker.postMessage(message);
  const failAll = (error: Error) => {
    for (const entry of waiting.values()) entry.reject(error);
    waiting.clear();
  };

  const thread: FoldThread = {
    flush: () =>
      new Promise<number>((resolve, reject) => {
        if (exited) return reject(new Error('the fold thread has exited'));
        const id = nextId++;
        waiting.set(id, { resolve, reject });
        send({ type: 'flush', id });
      }),
    stop: () =>
      new Promise<void>((done) => {
        if (exited) return done();
        stopped = done;
        send({ type: 'stop' });
      }).then(() => worker.terminate().then(() => undefined)),
  };

  return new Promise((resolve, reject) => {
    worker.on('message', (message: FoldThreadMessage) => {
      switch (message.type) {
        case 'ready':
          return resolve(thread);
        case 'flushed': {
          const entry = waiting.get(message.id);
          waiting.delete(message.id);
          if (message.error === null) entry?.resolve(message.through);
          else entry?.reject(new Error(`rollup fold failed: ${message.error}`));
          return;
        }
        case 'error':
          return onError(message.message);
        case 'stopped':
          return stopped?.();
        case 'failed':
          return reject(new Error(`fold thread failed to start: ${message.message}`));
      }
    });
    worker.on('error', (error) => {
      failAll(error);
      reject(error);
    });
    worker.on('exit', () => {
      exited = true;
      failAll(new Error('the fold thread has exited'));
      stopped?.();
    });
  });
}
