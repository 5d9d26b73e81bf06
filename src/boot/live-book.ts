/**
 * Keeps an API process's in-memory book current from the change stream, without ever serving
 * a state older than the store's:
 *  1. subscribe to the bus first (events arriving from now on are buffered),
 *  2. load the book from the store,
 *  3. apply the buffered events, then every live event as it arrives.
 * An event already contained in the loaded state is harmless: the book keeps the newer of two
 * snapshots of a side and de-duplicates sales. When the bus reports a possible loss (`onGap`:
 * a reconnect or a skipped sequence number) the book is reloaded from the store on top of what
 * it holds; a failed reload (PostgreSQL down) is retried every `retryMs` while reads go on
 * being served from memory.
 */
import type { Book } from '../book/book.ts';
import type { Clock } from '../domain/clock.ts';
import type { ChangeBus, ChangeEvent, ChangePosition } from '../events/change-bus.ts';
import { restoreBook, type RestoreSource } from './restore.ts';

export interface LiveBookLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface LiveBookOptions {
  /** `ready` (Redis bus): resolves once the subscription listens. */
  bus: ChangeBus & { readonly ready?: Promise<void> };
  store: RestoreSource;
  book: Book;
  clock: Clock;
  logger: LiveBookLogger;
  /** How long boot waits for the subscription before loading anyway (default 5 s). */
  readyTimeoutMs?: number;
  /** Delay before retrying a failed reload (default 5 s). */
  retryMs?: number;
  /** Hears each event once the book has applied it, with its bus position (stream hub). */
  onApplied?: (event: ChangeEvent, position: ChangePosition | undefined) => void;
}

export interface LiveBook {
  /** Reloads from the store (coalesced: at most one reload runs, at most one waits). */
  reload(): Promise<void>;
  /** Completed reloads after the initial load. */
  reloads(): number;
  stop(): void;
}

function settlesWithin(promise: Promise<void>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    promise.then(
      () => {
        clearTimeout(timer);
        resolve(true);
      },
      () => resolve(false),
    );
  });
}

export async function startLiveBook(options: LiveBookOptions): Promise<LiveBook> {
  const { bus, store, book, clock, logger } = options;
  const retryMs = options.retryMs ?? 5_000;
  let buffer: [ChangeEvent, ChangePosition | undefined][] | null = [];
  const apply = (event: ChangeEvent, position: ChangePosition | undefined) => {
    book.apply(event.batch);
    options.onApplied?.(event, position);
  };
  let stopped = false;
  let running: Promise<void> | null = null;
  let again = false;
  let completed = 0;
  let retry: ReturnType<typeof setTimeout> | null = null;

  const unsubscribe = bus.subscribe((event, position) => {
    if (buffer) buffer.push([event, position]);
    else apply(event, position);
  });

  const loadOnce = async () => {
    try {
      await restoreBook(store, book, clock.now());
      completed += 1;
      logger.info({ reloads: completed }, 'book reloaded from the store');
    } catch (error) {
      logger.error({ err: error, retryMs }, 'book reload failed; serving from memory, will retry');
      if (!stopped && retry === null) {
        retry = setTimeout(() => {
          retry = null;
          void reload();
        }, retryMs);
        retry.unref();
      }
    }
  };

  const reload = async (): Promise<void> => {
    if (stopped) return;
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        await loadOnce();
      } while (again && !stopped);
    })().finally(() => (running = null));
    return running;
  };

  const offGap = bus.onGap(() => void reload());
  const subscribed = bus.ready ?? Promise.resolve();
  if (!(await settlesWithin(subscribed, options.readyTimeoutMs ?? 5_000))) {
    logger.warn({}, 'change stream not subscribed yet; the book reloads once it is');
    void subscribed.then(() => reload());
  }
  await restoreBook(store, book, clock.now());
  for (const [event, position] of buffer) apply(event, position);
  buffer = null;

  return {
    reload,
    reloads: () => completed,
    stop() {
      stopped = true;
      if (retry !== null) clearTimeout(retry);
      unsubscribe();
      offGap();
    },
  };
}
