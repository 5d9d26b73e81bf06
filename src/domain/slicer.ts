/**
 * Cooperative time slicing for long work on the HTTP thread: the work checks `due()` between
 * small steps and, when its slice of `budgetMs` is used up, awaits `pause()`, which lets the
 * event loop serve pending I/O (requests) before the work goes on. This bounds how long a
 * whole-catalog build holds the thread, whatever the catalog's size or the machine's speed,
 * and while requests are waiting it takes at most `BUSY_SHARE` of the thread.
 * Slices are measured with the monotonic `performance.now()`: scheduling, not business time.
 */

/** How long one slice of background work may hold the HTTP thread, ms. */
export const SLICE_BUDGET_MS = 4;

/**
 * The share of the HTTP thread background work takes while requests keep it busy: after a
 * turn of the loop that served others for `BUSY_TURN_MS` or more, the next slice waits until
 * others have had (1 / share − 1) times the slice. An idle loop costs no wait.
 */
export const BUSY_SHARE = 0.2;
const BUSY_TURN_MS = 0.5;

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

  /** Yields to the event loop (I/O first), longer while requests keep it busy; a new slice. */
  async pause(): Promise<void> {
    const pausedAt = this.now();
    const sliceMs = pausedAt - this.started;
    await new Promise<void>((resolve) => setImmediate(resolve));
    const served = this.now() - pausedAt;
    const rest = sliceMs * (1 / BUSY_SHARE - 1) - served;
    if (served >= BUSY_TURN_MS && rest > 0) {
      await new Promise<void>((resolve) => setTimeout(resolve, rest));
    }
    this.started = this.now();
  }

  /** Pauses when the slice is used up. */
  async step(): Promise<void> {
    if (this.due()) await this.pause();
  }
}
