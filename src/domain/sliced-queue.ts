/**
 * A queue handled in arrival order with the event loop free between slices: whatever arrives in
 * a burst (a backlog of another thread's messages, which Node delivers back to back) is handled
 * a few ms at a time, so requests keep being served in between (and, while they keep the thread
 * busy, the queue takes a bounded share of it, its own: see `Slicer`).
 */
import { BusyShare, Slicer, SLICE_BUDGET_MS } from './slicer.ts';

/** Handled entries are dropped from the front once this many have piled up. */
const COMPACT_AT = 1024;

export class SlicedQueue<T> {
  private entries: (T | undefined)[] = [];
  private next = 0;
  private scheduled = false;
  private idle: (() => void)[] = [];
  private readonly share = new BusyShare();

  constructor(
    private readonly handle: (entry: T) => void,
    /** Hears an entry's failure; the queue goes on with the next entry. */
    private readonly onError: (error: unknown) => void,
    private readonly budgetMs = SLICE_BUDGET_MS,
    /** Monotonic ms for the slices (tests pass their own). */
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Entries waiting to be handled. */
  get length(): number {
    return this.entries.length - this.next;
  }

  push(entry: T): void {
    this.entries.push(entry);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => void this.drain());
  }

  /** Resolves once every entry pushed so far has been handled. */
  drained(): Promise<void> {
    if (this.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  private async drain(): Promise<void> {
    const slicer = new Slicer(this.budgetMs, this.now, this.share);
    while (this.next < this.entries.length) {
      const entry = this.entries[this.next] as T;
      this.entries[this.next] = undefined;
      this.next += 1;
      try {
        this.handle(entry);
      } catch (error) {
        this.onError(error);
      }
      if (this.next >= COMPACT_AT) {
        this.entries = this.entries.slice(this.next);
        this.next = 0;
      }
      if (this.length > 0 && slicer.due()) await slicer.pause();
    }
    this.scheduled = false;
    for (const resolve of this.idle.splice(0)) resolve();
  }
}
