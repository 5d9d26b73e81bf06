/**
 * Starts a store's fold thread (fold-thread.ts) and talks to it: flush() asks for everything
 * journaled so far to be folded and resolves with the last journal id folded; stop() folds
 * what is left and ends the thread. Errors of the thread's own periodic folds go to onError
 * (the entries stay in the journal and are folded by a later attempt).
 *
 * The thread's heap is capped (issue 18: uncapped, V8 let it grow to 1-1.3 GB around 10-300 MB
 * of live data). A thread that ends unasked after it was ready, out of heap or otherwise, is
 * replaced by a new one with twice the old-generation cap, and the flushes it owed are asked of
 * the new one: a fold commits with its journal mark, so a thread that dies mid-fold loses
 * nothing and the next folds from the mark. A thread that ends before it is ready fails the start.
 */
import { Worker } from 'node:worker_threads';
import type { FoldHostMessage, FoldThreadConfig, FoldThreadMessage } from './fold-messages.ts';

/** Folding allocates many short-lived deltas: a larger young generation, as ingest has. */
const FOLD_YOUNG_GENERATION_MB = 192;
export const FOLD_OLD_GENERATION_MB = 768;

export interface FoldThread {
  flush(): Promise<number>;
  stop(): Promise<void>;
}

export interface FoldThreadOptions {
  /** The thread's entry module (tests start stand-ins). */
  script?: URL;
  maxOldGenerationSizeMb?: number;
}

interface Waiting {
  resolve: (through: number) => void;
  reject: (error: Error) => void;
}

const FOLD_SCRIPT = new URL('./fold-thread-bootstrap.mjs', import.meta.url);

export function startFoldThread(
  config: FoldThreadConfig,
  onError: (message: string) => void,
  options: FoldThreadOptions = {},
): Promise<FoldThread> {
  const waiting = new Map<number, Waiting>();
  let nextId = 1;
  let oldGenerationMb = options.maxOldGenerationSizeMb ?? FOLD_OLD_GENERATION_MB;
  let worker: Worker;
  let stopping: (() => void) | null = null;
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
        stopping = done;
        send({ type: 'stop' });
      }).then(() => worker.terminate().then(() => undefined)),
  };

  function onMessage(message: FoldThreadMessage, ready: () => void, fail: (e: Error) => void) {
    switch (message.type) {
      case 'ready':
        return ready();
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
        return stopping?.();
      case 'failed':
        return fail(new Error(`fold thread failed to start: ${message.message}`));
    }
  }

  /** Starts one thread; resolves once it is ready, rejects if it ends or fails before. */
  function spawn(): Promise<void> {
    return new Promise((resolve, reject) => {
      let isReady = false;
      let lastError: Error | null = null;
      const current = new Worker(options.script ?? FOLD_SCRIPT, {
        workerData: config,
        resourceLimits: {
          maxYoungGenerationSizeMb: FOLD_YOUNG_GENERATION_MB,
          maxOldGenerationSizeMb: oldGenerationMb,
        },
      });
      worker = current;
      const ready = () => {
        isReady = true;
        resolve();
      };
      current.on('message', (message: FoldThreadMessage) => onMessage(message, ready, reject));
      current.on('error', (error) => (lastError = error));
      current.on('exit', (code) => {
        if (!isReady) return reject(lastError ?? new Error(`fold thread exited (code ${code})`));
        if (stopping || exited) return finish();
        replace(code, lastError);
      });
    });
  }

  function finish(): void {
    exited = true;
    failAll(new Error('the fold thread has exited'));
    stopping?.();
  }

  function replace(code: number, error: Error | null): void {
    oldGenerationMb *= 2;
    onError(
      `fold thread ended (code ${code}${error ? `: ${error.message}` : ''}); ` +
        `restarting it with a ${oldGenerationMb} MB heap cap`,
    );
    spawn().then(
      () => {
        for (const id of waiting.keys()) send({ type: 'flush', id });
      },
      (failure: Error) => {
        onError(`fold thread could not be restarted: ${failure.message}`);
        finish();
      },
    );
  }

  return spawn().then(() => thread);
}
