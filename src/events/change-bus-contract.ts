/**
 * The ChangeBus contract: one node:test suite for every implementation (memory and Redis).
 * `makeBus` returns a fresh bus, ready to deliver, on a channel no other test uses.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChangeBus, ChangeEvent } from './change-bus.ts';
import { sampleBatch } from './test-batches.ts';

/** A hang guard only: on a loaded machine a Redis round trip may take seconds. */
const WAIT_MS = 60_000;

/** Collects events until `count` arrived (rejects if they do not arrive within WAIT_MS). */
export function collect(bus: ChangeBus, count: number) {
  const events: ChangeEvent[] = [];
  let unsubscribe: () => void = () => {};
  const done = new Promise<ChangeEvent[]>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`got ${events.length} of ${count} events`)),
      WAIT_MS,
    );
    unsubscribe = bus.subscribe((event) => {
      events.push(event);
      if (events.length === count) {
        clearTimeout(timer);
        resolve(events);
      }
    });
  });
  return { events, done, unsubscribe };
}

export function changeBusContract(name: string, makeBus: () => ChangeBus | Promise<ChangeBus>) {
  const withBus = (fn: (bus: ChangeBus) => Promise<void>) => async () => {
    const bus = await makeBus();
    try {
      await fn(bus);
    } finally {
      await bus.close();
    }
  };

  describe(`ChangeBus contract: ${name}`, () => {
    test(
      'a subscriber receives the published event with a deep-equal batch',
      withBus(async (bus) => {
        const received = collect(bus, 2);
        const events: ChangeEvent[] = [
          { game: 'cs2', batch: sampleBatch(1), origin: 'ingest:a' },
          { game: 'rust', batch: { sides: [], sales: [], listings: [] }, origin: 'ingest:a' },
        ];
        for (const event of events) await bus.publish(event);
        assert.deepEqual(await received.done, events);
      }),
    );

    test(
      'every subscriber receives every event',
      withBus(async (bus) => {
        const first = collect(bus, 3);
        const second = collect(bus, 3);
        for (let n = 0; n < 3; n += 1) {
          await bus.publish({ game: 'cs2', batch: sampleBatch(n), origin: 'ingest:a' });
        }
        const [a, b] = await Promise.all([first.done, second.done]);
        assert.deepEqual(a, b);
        assert.deepEqual(
          a.map((event) => event.batch),
          [0, 1, 2].map((n) => sampleBatch(n)),
        );
      }),
    );

    test(
      'an unsubscribed handler hears nothing more',
      withBus(async (bus) => {
        const leaving = collect(bus, 1);
        const staying = collect(bus, 2);
        await bus.publish({ game: 'cs2', batch: sampleBatch(1), origin: 'ingest:a' });
        await leaving.done;
        leaving.unsubscribe();
        await bus.publish({ game: 'cs2', batch: sampleBatch(2), origin: 'ingest:a' });
        await staying.done;
        assert.equal(leaving.events.length, 1);
      }),
    );

    test(
      "one publisher's events arrive in publish order",
      withBus(async (bus) => {
        const received = collect(bus, 50);
        const sent = Array.from({ length: 50 }, (_, n) => ({
          game: 'cs2' as const,
          batch: sampleBatch(n),
          origin: `ingest:${n % 3}`,
        }));
        await Promise.all(sent.map((event) => bus.publish(event)));
        assert.deepEqual(await received.done, sent);
      }),
    );

    test(
      'a failing handler does not keep the event from the others',
      withBus(async (bus) => {
        bus.subscribe(() => {
          throw new Error('handler bug');
        });
        bus.subscribe(async () => {
          throw new Error('async handler bug');
        });
        const healthy = collect(bus, 2);
        await bus.publish({ game: 'cs2', batch: sampleBatch(1), origin: 'ingest:a' });
        await bus.publish({ game: 'cs2', batch: sampleBatch(2), origin: 'ingest:a' });
        assert.equal((await healthy.done).length, 2);
      }),
    );
  });
}
