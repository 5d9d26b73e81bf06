/**
 * What a late event-loop turn was made of, on Linux: between two turns of a short timer, the
 * time the thread spent runnable but waiting for a core (the kernel's run-queue time in
 * `/proc/thread-self/schedstat`, ns) and the rest, the time the thread was held: running our
 * code, collecting garbage or blocked in a call. A stall that is mostly waiting is another
 * thread or process on the core, not a read holding the thread (docs/operating.md, "Metrics").
 * Elsewhere, or where the file cannot be read, the gauges are not registered.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { Gauge, type Registry } from 'prom-client';

/** One reading: wall time and run-queue time so far, ms. */
export interface TurnSample {
  atMs: number;
  waitedMs: number;
}

type TurnParts = { heldMs: number; waitedMs: number };
/** The longest hold and the longest stall since the last reset, each split in held and waited. */
export type LateTurns = Record<'longestHold' | 'longestStall', TurnParts>;

/** The `turn` label of each. */
const TURN_LABELS = { longestHold: 'longest_hold', longestStall: 'longest_stall' } as const;
const none = (): TurnParts => ({ heldMs: 0, waitedMs: 0 });

/** Folds timer turns `intervalMs` apart into LateTurns; `take()` returns them and starts over. */
export class TurnSplitter {
  private previous: TurnSample | null = null;
  private turns: LateTurns = { longestHold: none(), longestStall: none() };

  constructor(private readonly intervalMs: number) {}

  add(sample: TurnSample): void {
    const previous = this.previous;
    this.previous = sample;
    if (previous === null) return;
    const lateMs = Math.max(0, sample.atMs - previous.atMs - this.intervalMs);
    const waitedMs = Math.min(lateMs, Math.max(0, sample.waitedMs - previous.waitedMs));
    const turn = { heldMs: lateMs - waitedMs, waitedMs };
    const { longestHold, longestStall } = this.turns;
    if (turn.heldMs > longestHold.heldMs) this.turns.longestHold = turn;
    if (lateMs > longestStall.heldMs + longestStall.waitedMs) this.turns.longestStall = turn;
  }

  take(): LateTurns {
    const turns = this.turns;
    this.turns = { longestHold: none(), longestStall: none() };
    return turns;
  }
}

const SCHEDSTAT = '/proc/thread-self/schedstat';

/** The calling thread's run-queue time, ms, from a descriptor opened on that thread. */
export function runQueueReader(path = SCHEDSTAT): { read(): number; close(): void } | null {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return null;
  }
  const buffer = Buffer.alloc(96);
  const read = () => {
    const text = buffer.toString('latin1', 0, readSync(fd, buffer, 0, buffer.length, 0));
    return Number(text.split(' ')[1]) / 1e6;
  };
  if (!Number.isFinite(read())) return (closeSync(fd), null);
  return { read, close: () => closeSync(fd) };
}

/**
 * Registers the gauges on `registry` and samples this thread every `intervalMs`; returns the
 * stop function, or null where run-queue time cannot be read.
 */
export function watchThreadHolds(registry: Registry, intervalMs: number): (() => void) | null {
  const queue = runQueueReader();
  if (queue === null) return null;
  const splitter = new TurnSplitter(intervalMs);
  const sample = () => splitter.add({ atMs: performance.now(), waitedMs: queue.read() });
  const timer = setInterval(sample, intervalMs).unref();
  const gauge = new Gauge({
    name: 'pricing_event_loop_late_turn_seconds',
    help: 'Since the last scrape, the turn of the event loop held longest by its own work (running or blocked) and the longest stall, each split in held and waiting for a core',
    labelNames: ['turn', 'part'],
    registers: [registry],
    collect() {
      const turns = splitter.take();
      for (const [key, turn] of Object.entries(TURN_LABELS)) {
        const parts = turns[key as keyof LateTurns];
        gauge.set({ turn, part: 'held' }, parts.heldMs / 1000);
        gauge.set({ turn, part: 'waited' }, parts.waitedMs / 1000);
      }
    },
  });
  return () => {
    clearInterval(timer);
    queue.close();
  };
}
