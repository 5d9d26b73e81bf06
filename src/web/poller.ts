/**
 * Live updates: runs a read now (or after `firstDelayMs`) and then every `everyMs` while the
 * view is mounted, waits out Retry-After on a 429, and pauses while the tab is hidden. stop()
 * ends it.
 */
import { RateLimited } from './api.ts';

export interface Poller {
  stop(): void;
}

export function poll(
  everyMs: number,
  tick: () => Promise<void>,
  onError: (error: unknown) => void,
  firstDelayMs = 0,
): Poller {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let stopped = false;
  const schedule = (delay: number) => {
    if (!stopped) timer = setTimeout(run, delay);
  };
  const run = async () => {
    if (document.hidden) return schedule(everyMs);
    try {
      await tick();
      schedule(everyMs);
    } catch (error) {
      onError(error);
      schedule(error instanceof RateLimited ? error.retryAfterSeconds * 1000 : everyMs);
    }
  };
  if (firstDelayMs > 0) schedule(firstDelayMs);
  else void run();
  return {
    stop() {
      stopped = true;
      if (timer !== null) clearTimeout(timer);
    },
  };
}
