/**
 * The change-event port. The ingest role publishes every committed IngestBatch; API processes
 * subscribe and apply it to their own in-memory Book, so no process reads the store to stay
 * current. Implementations: in-process (embedded default) and Redis pub/sub (scaled).
 * Delivery is at most once: when a bus knows events may have been lost (a reconnect, a gap in a
 * publisher's sequence) it tells `onGap` listeners, who reload latest state from the store.
 * Handlers receive the published batch as is and must not modify it. A bus shared by several
 * processes also hands each event its position in the deployment (see ChangePosition).
 */
import type { Game } from '../domain/games.ts';
import type { IngestBatch } from '../domain/quote.ts';

export interface ChangeEvent {
  game: Game;
  /** The batch exactly as the store committed it. */
  batch: IngestBatch;
  /** Which process published it (e.g. `ingest:<host>:<pid>:<random>`). */
  origin: string;
  /** Price-stream watch keys an API process announces to the others (with an empty batch). */
  watch?: readonly string[];
}

/**
 * Where an event stands in the deployment: `position` increases strictly over every event
 * published on the bus (each subscriber sees the same events at the same positions), `at` is
 * the publisher's clock, never below the previous event's.
 */
export interface ChangePosition {
  position: number;
  at: number;
}

export type ChangeHandler = (event: ChangeEvent, position?: ChangePosition) => void | Promise<void>;

export type GapReason = 'reconnect' | 'sequence';
export type GapHandler = (reason: GapReason) => void;

export interface ChangeBus {
  /** Resolves once the event is handed to the transport (not once every subscriber ran). */
  publish(event: ChangeEvent): Promise<void>;
  /** Returns the unsubscribe function. */
  subscribe(handler: ChangeHandler): () => void;
  /** Returns the function that removes the listener. */
  onGap(handler: GapHandler): () => void;
  close(): Promise<void>;
}

/** Calls each handler, keeping a throwing or rejecting handler from affecting the others. */
export function dispatch(
  handlers: Iterable<ChangeHandler>,
  event: ChangeEvent,
  onError: (error: unknown) => void,
  position?: ChangePosition,
): void {
  for (const handler of handlers) {
    try {
      const result = position ? handler(event, position) : handler(event);
      if (result instanceof Promise) result.catch(onError);
    } catch (error) {
      onError(error);
    }
  }
}
