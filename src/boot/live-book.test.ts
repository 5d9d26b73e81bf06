import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Book } from '../book/book.ts';
import { manualClock } from '../domain/clock.ts';
import type { IngestBatch, SideSnapshot } from '../domain/quote.ts';
import type { ChangeBus, ChangeHandler, GapHandler } from '../events/change-bus.ts';
import { side, T0 } from '../store/contract-fixtures.ts';
import { startLiveBook } from './live-book.ts';

const ITEM = 'ak-47-redline-field-tested';

function fakeBus() {
  const handlers = new Set<ChangeHandler>();
  const gaps = new Set<GapHandler>();
  let markReady: () => void = () => {};
  const bus: ChangeBus & { ready: Promise<void> } = {
    ready: new Promise<void>((resolve) => (markReady = resolve)),
    publish: async () => {},
    subscribe(handler) {
      handlers.add(handler);
      return () => handlers.delete(handler);
    },
    onGap(handler) {
      gaps.add(handler);
      return () => gaps.delete(handler);
    },
    close: async () => {},
  };
  return {
    bus,
    markReady: () => markReady(),
    deliver(batch: IngestBatch) {
      for (const handler of handlers) void handler({ game: 'cs2', batch, origin: 'test' });
    },
    gap() {
      for (const handler of gaps) handler('reconnect');
    },
    subscribers: () => handlers.size,
  };
}

/** A store whose sides the test sets; `failNext` makes the next load throw. */
function fakeStore() {
  const state = { sides: [] as SideSnapshot[], loads: 0, failNext: false };
  let onLoad: () => void = () => {};
  return {
    state,
    nextLoad: () => new Promise<void>((resolve) => (onLoad = resolve)),
    store: {
      async streamSides(game: string, visit: (sides: SideSnapshot[]) => void) {
        if (game !== 'cs2') return 0;
        state.loads += 1;
        onLoad();
        if (state.failNext) {
          state.failNext = false;
          throw new Error('connect ECONNREFUSED');
        }
        if (state.sides.length > 0) visit(state.sides);
        return state.sides.length;
      },
      streamSales: async () => 0,
      loadListings: async () => [],
      loadSalesStats: async () => [],
    },
  };
}

const quiet = { info() {}, warn() {}, error() {} };

/**
 * Awaits `promise` with a referenced timer held: the retry timer under test is unreferenced (it
 * must not keep a server alive), so alone it would let the test process's event loop empty.
 */
async function heldOpen<T>(promise: Promise<T>): Promise<T> {
  const hold = setInterval(() => {}, 1_000);
  try {
    return await promise;
  } finally {
    clearInterval(hold);
  }
}
const at = (fetchedAt: number, price: number) =>
  side({ fetchedAt, levels: [{ price, quantity: 1, orders: null }] });
const batchOf = (snapshot: SideSnapshot): IngestBatch => ({
  sides: [snapshot],
  sales: [],
  listings: [],
});
const bestAsk = (book: Book) =>
  book.sides('cs2', ITEM).find((entry) => entry.market === 'skinport')?.ask?.levels[0]?.price;

describe('startLiveBook', () => {
  test('subscribes before loading, then applies what arrived meanwhile (newest wins)', async () => {
    const { bus, markReady, deliver, subscribers } = fakeBus();
    const { store, state } = fakeStore();
    state.sides = [at(T0 + 1000, 1500)];
    const book = new Book();
    const starting = startLiveBook({ bus, store, book, clock: manualClock(T0), logger: quiet });
    assert.equal(subscribers(), 1, 'subscribed at once');
    assert.equal(state.loads, 0, 'the store is read only once the subscription listens');
    deliver(batchOf(at(T0 + 500, 1400)));
    deliver(batchOf(at(T0 + 2000, 1600)));
    markReady();
    const live = await starting;
    assert.equal(state.loads, 1);
    assert.equal(bestAsk(book), 1600, 'the buffered newer event beats the loaded state');
    deliver(batchOf(at(T0 + 3000, 1700)));
    assert.equal(bestAsk(book), 1700, 'live events apply directly');
    live.stop();
    assert.equal(subscribers(), 0);
  });

  test('a gap reloads from the store; a failed reload is retried, memory keeps serving', async () => {
    const { bus, markReady, gap } = fakeBus();
    const { store, state, nextLoad } = fakeStore();
    markReady();
    const book = new Book();
    const live = await startLiveBook({
      bus,
      store,
      book,
      clock: manualClock(T0),
      logger: quiet,
      retryMs: 1,
    });
    state.sides = [at(T0 + 5000, 1900)];
    state.failNext = true;
    const failed = nextLoad();
    gap();
    await failed;
    assert.equal(bestAsk(book), undefined, 'nothing loaded yet: the reload failed');
    await heldOpen(nextLoad());
    await live.reload();
    assert.equal(bestAsk(book), 1900);
    assert.ok(live.reloads() >= 1);
    live.stop();
  });

  test('boot does not wait forever for the subscription', async () => {
    const { bus, markReady } = fakeBus();
    const { store, state, nextLoad } = fakeStore();
    const live = await startLiveBook({
      bus,
      store,
      book: new Book(),
      clock: manualClock(T0),
      logger: quiet,
      readyTimeoutMs: 1,
    });
    assert.equal(state.loads, 1, 'loaded without the subscription');
    const reloaded = nextLoad();
    markReady();
    await reloaded;
    assert.equal(state.loads, 2, 'reloaded once the subscription listened');
    live.stop();
  });
});
