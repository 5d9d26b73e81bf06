/**
 * In-process ChangeBus (the embedded default, role `all`): publish calls every subscriber
 * synchronously, in publish order, with the very batch object it was given. Nothing can be
 * lost, so gap listeners are never called.
 */
import type { ChangeBus, ChangeHandler } from './change-bus.ts';
import { dispatch } from './change-bus.ts';

export function createMemoryChangeBus(
  onHandlerError: (error: unknown) => void = () => {},
): ChangeBus {
  const handlers = new Set<ChangeHandler>();
  let closed = false;
  return {
    async publish(event) {
      if (closed) throw new Error('change bus is closed');
      dispatch([...handlers], event, onHandlerError);
    },
    subscribe(handler) {
      const own: ChangeHandler = (event) => handler(event);
      handlers.add(own);
      return () => {
        handlers.delete(own);
      };
    },
    onGap() {
      return () => {};
    },
    async close() {
      closed = true;
      handlers.clear();
    },
  };
}
