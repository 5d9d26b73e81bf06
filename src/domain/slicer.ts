/**
 * Cooperative time slicing for long work on the HTTP thread: the work checks `due()` between
 * small steps and, when its slice of `budgetMs` is used up, awaits `pause()`, which lets the
 * event loop serve pending I/O (requests) before the work goes on. This bounds how long a
 * whole-catalog build holds the thread, whatever the catalog's size or the machine's speed,
 * and while requests are waiting the work of one `BusyShare` takes at most `BUSY_SHARE` of the
 * thread: the whole-catalog builds share `BULK_WORK`, so builds that run at once (at start:
 * items/all, the bulk liquidity map, the schema snapshot) take a fifth between them.
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
/** The longest wait a pause owes others: four slices' worth of other work per slice. */
const MOST_OWED_MS = 4 * SLICE_BUDGET_MS * (1 / BUSY_SHARE - 1);

/** Work that takes one share of a busy thread between its slicers (each has one of its own). */
export class BusyShare {
  private owedUntil = Number.NEGATIVE_INFINITY;

  /** Owes others (1 / share − 1) times a slice that ended at `at`; when that is paid. */
  owe(at: number, sliceMs: number): number {
    const from = Math.max(this.owedUntil, at);
    this.owedUntil = Math.min(from + sliceMs * (1 / BUSY_SHARE - 1), at + MOST_OWED_MS);
    return this.owedUntil;
  }
}

/** The share of the whole-catalog builds. */
export const BULK_WORK = new BusyShare();

export class Slicer {
  private started: number;

  constructor(
    private readonly budgetMs = SLICE_BUDGET_MS,
    /** Monotonic ms (tests pass their own). */
    private readonly now: () => number = () => performance.now(),
    private readonly share: BusyShare = BULK_WORK,
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
    const paidAt = this.share.owe(pausedAt, pausedAt - this.started);
    await new Promise<void>((resolve) => setImmediate(resolve));
    const served = this.now() - pausedAt;
    const rest = paidAt - this.now();
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
