/**
 * The positions the price streams of a scaled-out API process follow (http/stream/hub.ts).
 * Every event of the shared change bus carries its position in the deployment; the process
 * hands each one here once its book has applied it, and its stream hub derives the stream
 * events of that position. Watch announcements (which items some stream of some process
 * follows) and idle ticks (so that quotes turn stale on time while no batch arrives) travel on
 * the same bus, so every API process sees them at the same position too. A possible loss on
 * the bus (`onGap`) cuts the streams: the book is reloaded outside any position.
 */
import type { ChangeBus, ChangeEvent, ChangePosition } from './change-bus.ts';

/**
 * Positions never fall below the clock counted in this unit (tenths of a second), so they keep
 * rising across a lost counter or a restart unless more than ten a second went by on average.
 */
export const POSITION_FLOOR_MS = 100;

export interface StreamPosition extends ChangePosition {
  /** Watch keys announced at this position. */
  watch: readonly string[];
}

export interface PositionFeed {
  onPosition(listener: (position: StreamPosition) => void): () => void;
  /** Events may have been lost: positions before now can no longer be derived. */
  onCut(listener: () => void): () => void;
  announce(keys: readonly string[]): void;
  tick(): void;
}

export interface BusPositions extends PositionFeed {
  /** Called once the book has applied `event` (which arrived at `position`). */
  applied(event: ChangeEvent, position: ChangePosition | undefined): void;
  close(): void;
}

export interface PositionsLogger {
  warn(obj: object, msg: string): void;
}

const EMPTY = { sides: [], sales: [], listings: [] };

export function createBusPositions(
  bus: ChangeBus,
  origin: string,
  logger: PositionsLogger,
): BusPositions {
  const listeners = new Set<(position: StreamPosition) => void>();
  const cutListeners = new Set<() => void>();
  const offGap = bus.onGap(() => {
    for (const listener of [...cutListeners]) listener();
  });
  const publish = (watch: readonly string[]) => {
    bus.publish({ game: 'cs2', batch: EMPTY, origin, watch }).catch((error: unknown) => {
      logger.warn({ err: error }, 'stream position not published');
    });
  };
  return {
    applied(event, position) {
      if (!position) return;
      const stamped = { ...position, watch: event.watch ?? [] };
      for (const listener of [...listeners]) listener(stamped);
    },
    onPosition(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    onCut(listener) {
      cutListeners.add(listener);
      return () => cutListeners.delete(listener);
    },
    announce: (keys) => publish(keys),
    tick: () => publish([]),
    close() {
      offGap();
      listeners.clear();
      cutListeners.clear();
    },
  };
}
