/**
 * At most `limit` tasks at once; the others wait for a free slot in the order they came.
 * The ingest runner passes a standby's takeover polls through it (runner.ts).
 */
export type Slots = <T>(task: () => Promise<T>) => Promise<T>;

export function createSlots(limit: number): Slots {
  let free = Math.max(1, limit);
  const waiting: (() => void)[] = [];
  return async (task) => {
    if (free > 0) free -= 1;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else free += 1;
    }
  };
}
