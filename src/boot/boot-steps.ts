/**
 * Wall-clock milliseconds per boot step (catalog, store open, book restore, HTTP front ...),
 * logged once the process serves so "how long to first prices, and where did it go" is
 * answered from the log instead of a profiler. Measures real elapsed time, not the service
 * clock: these are durations of work, not timestamps of data.
 */
export interface BootSteps {
  /** Runs `work` and records its duration under `name`. */
  time<T>(name: string, work: () => T): T;
  timeAsync<T>(name: string, work: () => Promise<T>): Promise<T>;
  /** Every recorded step in ms (rounded), plus the total since creation. */
  summary(): Record<string, number>;
}

export function bootSteps(): BootSteps {
  const started = performance.now();
  const steps: Record<string, number> = {};
  const record = (name: string, from: number) => {
    steps[name] = Math.round(performance.now() - from);
  };
  return {
    time(name, work) {
      const from = performance.now();
      try {
        return work();
      } finally {
        record(name, from);
      }
    },
    async timeAsync(name, work) {
      const from = performance.now();
      try {
        return await work();
      } finally {
        record(name, from);
      }
    },
    summary() {
      return { ...steps, total: Math.round(performance.now() - started) };
    },
  };
}
