/**
 * Cooperative time slicing for long work on the HTTP thread: the work checks `due()` between
 * small steps and, when its slice of `budgetMs` is used up, awaits `pause()`, which lets the
 * event loop serve pending I/O (requests) before the work goes on. This bounds how long a
 * whole-catalog build holds the thread, whatever the catalog's size or the machine's speed.
 * Slices are measured with the monotonic `performance.now()`: scheduling, not business time.
 */

/** How long one slice of background work may hold the HTTP thread, ms. */
export const SLICE_BUDGET_MS = 4;

export class Slicer {
  private started: number;

  constructor(
    private readonly budgetMs = SLICE_BUDGET_MS,
    /** Monotonic ms (tests pass their own). */
    private readonly now: () => number = () => performance.now(),
  ) {
    this.started = now();
  }

  /** True once the current slice has used its budget. */
  due(): boolean {
    return this.now() - this.started >= this.budgetMs;
  }

  /** Yields to the event loop (I/O first), then starts a new slice. */
  async pause(): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.started = this.now();
  }

  /** Pauses when the slice is used up. */
  async step(): Promise<void> {
    if (this.due()) await this.pause();
  }
}
