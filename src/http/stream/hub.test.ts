/**
 * The stream hub on its own: health events, and two hubs fed the same change positions (as two
 * API processes on one change bus are) deriving the same events under the same ids, so a stream
 * begun on one resumes on the other. The end-to-end version with real processes, PostgreSQL
 * and Redis is test/stream-resume.test.ts.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Book } from '../../book/book.ts';
import { manualClock, MINUTE, SECOND } from '../../domain/clock.ts';
import type { MarketId } from '../../domain/markets.ts';
import type { PositionFeed, StreamPosition } from '../../events/bus-positions.ts';
import { DEFAULT_FEE_MODEL } from '../../markets/fees.ts';
import { side } from '../../pricing/snapshot-fixtures.ts';
import { StreamHub, type StreamEventType, type StreamSink } from './hub.ts';

const REDLINE = { id: 'cs2-redline-ft', marketHashName: 'AK-47 | Redline (Field-Tested)' };

interface Frame {
  id: number;
  event: string;
  data: unknown;
}

function collector(): StreamSink & { frames: Frame[] } {
  const frames: Frame[] = [];
  return {
    frames,
    write(chunk) {
      for (const text of chunk.split('\n\n')) {
        const lines = text.split('\n');
        const data = lines.find((line) => line.startsWith('data: '));
        if (!data) continue;
        frames.push({
          id: Number(lines.find((line) => line.startsWith('id: '))!.slice(4)),
          event: lines.find((line) => line.startsWith('event: '))!.slice(7),
          data: JSON.parse(data.slice(6)),
        });
      }
      return true;
    },
    close() {},
  };
}

const subscription = (sink: StreamSink, lastEventId: number | null, types: StreamEventType[]) => ({
  game: 'cs2' as const,
  items: [REDLINE],
  selection: { markets: null },
  types: new Set(types),
  lastEventId,
  sink,
});

describe('health events', () => {
  test('a market whose status changes is one health event, at the next health period', () => {
    const clock = manualClock();
    const statuses = new Map<MarketId, string>([['csfloat', 'live']]);
    const hub = new StreamHub({
      book: new Book(),
      clock,
      feeModel: DEFAULT_FEE_MODEL,
      healthStatuses: () => new Map(statuses),
      tickMs: 0,
    });
    const sink = collector();
    const stop = hub.subscribe(subscription(sink, null, ['health']));
    statuses.set('csfloat', 'stale');
    clock.advance(SECOND);
    hub.tick();
    clock.advance(5 * SECOND);
    hub.tick();
    stop();
    assert.deepEqual(
      sink.frames.map((frame) => frame.event),
      ['snapshot', 'health'],
    );
    assert.deepEqual(sink.frames[1]!.data, { id: 'csfloat', status: 'stale' });
    hub.close();
  });
});

/** Stands in for the change bus: hands every hub the same positions and announcements. */
class SharedPositions {
  private position = 1_000;
  constructor(private readonly clock: { now(): number }) {}
  readonly feeds: (PositionFeed & { emit(at: StreamPosition): void })[] = [];

  feed(): PositionFeed {
    const listeners = new Set<(at: StreamPosition) => void>();
    const feed = {
      emit: (at: StreamPosition) => listeners.forEach((listener) => listener(at)),
      onPosition: (listener: (at: StreamPosition) => void) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
      onCut: () => () => {},
      announce: (keys: readonly string[]) => this.next(keys),
      tick: () => {},
    };
    this.feeds.push(feed);
    return feed;
  }

  next(watch: readonly string[] = [], at = this.clock.now()): void {
    this.position += 1;
    for (const feed of this.feeds) feed.emit({ position: this.position, at, watch });
  }
}

describe('two hubs on the same positions (two API processes on one bus)', () => {
  test('a stream begun on one resumes on the other with exactly the events it missed', () => {
    const clock = manualClock();
    const bus = new SharedPositions(clock);
    const books = [new Book(), new Book()];
    const hubs = books.map(
      (book) =>
        new StreamHub({
          book,
          clock,
          feeModel: DEFAULT_FEE_MODEL,
          positions: bus.feed(),
          resolveItem: (_, id) => (id === REDLINE.id ? REDLINE : undefined),
          tickMs: 0,
        }),
    );
    const [onA, onB] = hubs as [StreamHub, StreamHub];
    /** One committed change: both books apply it, then the bus hands both its position. */
    const change = (market: MarketId, kind: 'ask' | 'bid', price: number) => {
      clock.advance(10 * SECOND);
      const at = clock.now();
      for (const book of books) {
        book.apply({
          sides: [side(kind, { market, itemId: REDLINE.id, prices: [price], fetchedAt: at })],
          sales: [],
          listings: [],
        });
      }
      bus.next([], at);
    };
    const types: StreamEventType[] = ['quote', 'nbbo', 'stale'];
    const witness = collector();
    const first = collector();
    onA.subscribe(subscription(witness, null, types));
    const stopFirst = onA.subscribe(subscription(first, null, types));
    change('csfloat', 'ask', 1500);
    change('skinport', 'ask', 1450);
    stopFirst();
    const lastSeen = first.frames.at(-1)!.id;
    change('skinport', 'ask', 1400);
    change('csfloat', 'bid', 1300);
    clock.advance(31 * MINUTE);
    bus.next([], clock.now()); // every quote turns stale at this position
    const resumed = collector();
    onB.subscribe(subscription(resumed, lastSeen, types));
    change('buff163', 'ask', 1200);
    onA.close();
    onB.close();
    const missed = witness.frames.filter((frame) => frame.id > lastSeen);
    assert.ok(missed.some((frame) => frame.event === 'stale'));
    assert.ok(missed.length >= 8, `${missed.length} events`);
    assert.deepEqual(resumed.frames, missed);
  });
});
