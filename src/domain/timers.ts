/** One-shot timers behind a port, so debounce and cadence rules are testable without waiting. */
export interface Timers {
  set(callback: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

/** Node timers, unref'd so a pending rebuild never keeps the process alive. */
export const unrefTimers: Timers = {
  set: (callback, ms) => {
    const handle = setTimeout(callback, ms);
    handle.unref();
    return handle;
  },
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};
