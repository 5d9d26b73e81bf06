/**
 * What a role or thread opened, closed in reverse: each resource adds its closer as soon as it
 * is open, and the first `close()` runs them last-added first, each awaited before the next.
 * Every later `close()` returns the same promise, so nothing is closed twice. A closer that
 * fails does not stop the others; `close()` then rejects with the first failure. A closer added
 * once closing began (a resource that finished opening too late) runs after the others.
 */
export type Closer = () => Promise<unknown> | unknown;

export interface Closers {
  add(closer: Closer): void;
  close(): Promise<void>;
}

export function createClosers(): Closers {
  const open: Closer[] = [];
  const failures: unknown[] = [];
  let closing: Promise<void> | null = null;
  const run = async (closer: Closer) => {
    try {
      await closer();
    } catch (error) {
      failures.push(error);
    }
  };
  const settle = (done: Promise<void>) => {
    closing = done.then(() => {
      if (failures.length > 0) throw failures[0];
    });
    closing.catch(() => undefined);
    return closing;
  };
  const runAll = async () => {
    for (const closer of open.reverse()) await run(closer);
  };
  return {
    add(closer) {
      if (closing === null) open.push(closer);
      else settle(closing.catch(() => undefined).then(() => run(closer)));
    },
    close: () => closing ?? settle(runAll()),
  };
}
