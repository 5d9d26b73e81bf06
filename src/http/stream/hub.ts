/**
 * The price-stream hub of one API process. It listens to the book's change events on the HTTP
 * thread and, for the items some stream watches (or watched within the replay window), turns
 * each change into quote / nbbo / stale events (watch.ts), each serialized once and written to
 * every subscriber that wants it. Health changes are read every `healthEveryMs`.
 * - Event ids: max(last id + 1, now × 1000), so they increase strictly, also across a restart
 *   while the clock does (about 1,000 events per ms before they run ahead of it).
 * - Replay: every event stays `replayMs` (default 10 min, at most `maxBuffered` events);
 *   a resume from id L replays the subscription's events after L when every watched key was
 *   watched at L and nothing after L was dropped; otherwise it is a reset and a fresh snapshot.
 * - `tick(now)` (a 1 s timer, or a test with a manual clock) turns quotes stale, reads health,
 *   writes `: ping` every 15 s, and drops expired events and watches.
 */
import type { Book, BookChange } from '../../book/book.ts';
import type { Clock } from '../../domain/clock.ts';
import type { Game } from '../../domain/games.ts';
import type { MarketId } from '../../domain/markets.ts';
import type { FeeModel } from '../../markets/fees.ts';
import { computeNbbo } from '../../pricing/nbbo.ts';
import { pricingSnapshot } from '../../pricing/snapshot.ts';
import type { MarketSelection } from '../../pricing/top-of-book.ts';
import { Watch, watchKey, type ItemEvent, type WatchedItem } from './watch.ts';

export type StreamEventType = 'quote' | 'nbbo' | 'stale' | 'health';
export const STREAM_EVENT_TYPES: readonly StreamEventType[] = ['quote', 'nbbo', 'stale', 'health'];

export const PING_EVERY_MS = 15_000;
export const DEFAULT_REPLAY_MS = 10 * 60_000;
export const DEFAULT_MAX_BUFFERED = 200_000;

export interface StreamSink {
  /** Writes one SSE frame; false when the client is too slow (the hub then drops it). */
  write(frame: string): boolean;
  close(): void;
}

export interface Subscription {
  game: Game;
  items: readonly WatchedItem[];
  selection: MarketSelection;
  types: ReadonlySet<StreamEventType>;
  /** The resume point (`Last-Event-ID`), or null for a fresh stream. */
  lastEventId: number | null;
  sink: StreamSink;
}

export interface StreamHubOptions {
  book: Book;
  clock: Clock;
  feeModel: FeeModel;
  /** Each market's health status now (the `/v1/health` rows). */
  healthStatuses?: (game: Game, now: number) => ReadonlyMap<MarketId, string>;
  replayMs?: number;
  maxBuffered?: number;
  healthEveryMs?: number;
  /** The tick timer's period; 0 leaves ticking to the caller (tests). */
  tickMs?: number;
}

interface Buffered {
  id: number;
  at: number;
  key: string;
  type: StreamEventType;
  frame: string;
}

interface Subscriber {
  keys: readonly string[];
  types: ReadonlySet<StreamEventType>;
  sink: StreamSink;
  lastPingAt: number;
  /** Frames of the change being fanned out, written together at its end. */
  held: string[] | null;
}

interface HealthWatch {
  statuses: ReadonlyMap<MarketId, string>;
  since: number;
}

export function sseFrame(id: number, type: string, data: unknown): string {
  return `id: ${id}\nevent: ${type}\ndata: ${JSON.stringify(data)}\n\n`;
}

const healthKey = (game: Game) => `${game}|health`;

export class StreamHub {
  private lastId: number;
  private droppedUpTo = 0;
  private readonly buffer: Buffered[] = [];
  private bufferHead = 0;
  private readonly watches = new Map<string, Watch>();
  private readonly watchesByItem = new Map<string, Set<Watch>>();
  private readonly idleSince = new Map<string, number>();
  private readonly health = new Map<Game, HealthWatch>();
  private readonly subscribers = new Map<string, Set<Subscriber>>();
  private readonly all = new Set<Subscriber>();
  private lastHealthAt = 0;
  /** Subscribers with frames held while a book change is fanned out (null outside one). */
  private holding: Subscriber[] | null = null;
  private readonly stopListening: () => void;
  private readonly timer: ReturnType<typeof setInterval> | null;
  readonly replayMs: number;

  constructor(private readonly options: StreamHubOptions) {
    this.replayMs = options.replayMs ?? DEFAULT_REPLAY_MS;
    this.lastId = options.clock.now() * 1000;
    this.stopListening = options.book.onChange((change) => this.onBookChange(change));
    const tickMs = options.tickMs ?? 1000;
    this.timer = tickMs > 0 ? setInterval(() => this.tick(), tickMs) : null;
    this.timer?.unref();
  }

  /** The id of the newest event (or the hub's starting point). */
  currentId(): number {
    return this.lastId;
  }

  openStreams(): number {
    return this.all.size;
  }

  /** Starts a stream: snapshot (or replay, or reset + snapshot); returns its unsubscribe. */
  subscribe(request: Subscription): () => void {
    const now = this.options.clock.now();
    this.tickStale(now);
    const keys = request.items.map((item) => watchKey(request.game, item.id, request.selection));
    if (request.types.has('health')) keys.push(healthKey(request.game));
    const resumable = request.lastEventId !== null && this.canResume(keys, request.lastEventId);
    for (const item of request.items) this.ensureWatch(request.game, item, request.selection, now);
    if (request.types.has('health')) this.ensureHealth(request.game, now);
    const subscriber: Subscriber = {
      keys,
      types: request.types,
      sink: request.sink,
      lastPingAt: now,
      held: null,
    };
    this.attach(subscriber);
    if (resumable) {
      this.replay(subscriber, request.lastEventId!);
    } else {
      if (request.lastEventId !== null) {
        const reason = 'the resume point is no longer buffered';
        if (!this.send(subscriber, sseFrame(this.lastId, 'reset', { reason }))) return () => {};
      }
      this.send(subscriber, this.snapshotFrame(request, now));
    }
    return () => this.detach(subscriber);
  }

  /** Processes due stale moments, health, pings and expiry at `now`. */
  tick(now = this.options.clock.now()): void {
    this.tickStale(now);
    if (now - this.lastHealthAt >= (this.options.healthEveryMs ?? 5_000)) {
      this.lastHealthAt = now;
      for (const game of this.health.keys()) this.readHealth(game, now);
    }
    for (const subscriber of [...this.all]) {
      if (now - subscriber.lastPingAt < PING_EVERY_MS) continue;
      subscriber.lastPingAt = now;
      this.send(subscriber, ': ping\n\n');
    }
    this.expire(now);
  }

  /** Ends every open stream (clients resume by id elsewhere). */
  endStreams(): void {
    for (const subscriber of [...this.all]) {
      this.detach(subscriber);
      subscriber.sink.close();
    }
  }

  close(): void {
    this.stopListening();
    if (this.timer) clearInterval(this.timer);
    this.endStreams();
  }

  private snapshotFrame(request: Subscription, now: number): string {
    const feeModel = this.options.feeModel;
    const items = request.items.map((item) => {
      const sides = this.options.book.sides(request.game, item.id);
      const pricing = pricingSnapshot(item, sides, request.selection, now);
      return {
        marketHashName: item.marketHashName,
        canonicalItemId: item.id,
        nbbo: computeNbbo(item, sides, request.selection, feeModel, now),
        markets: pricing.markets,
        buyOrders: pricing.buyOrders,
      };
    });
    return sseFrame(this.lastId, 'snapshot', { items });
  }

  private canResume(keys: readonly string[], lastEventId: number): boolean {
    if (lastEventId > this.lastId || lastEventId < this.droppedUpTo) return false;
    return keys.every((key) => {
      const since = key.endsWith('|health')
        ? this.health.get(key.split('|')[0] as Game)?.since
        : this.watches.get(key)?.since;
      return since !== undefined && since <= lastEventId;
    });
  }

  private replay(subscriber: Subscriber, after: number): void {
    const wanted = new Set(subscriber.keys);
    let low = this.bufferHead;
    let high = this.buffer.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.buffer[mid]!.id <= after) low = mid + 1;
      else high = mid;
    }
    for (let index = low; index < this.buffer.length; index += 1) {
      const event = this.buffer[index]!;
      if (wanted.has(event.key) && subscriber.types.has(event.type)) {
        if (!this.send(subscriber, event.frame)) return;
      }
    }
  }

  private attach(subscriber: Subscriber): void {
    this.all.add(subscriber);
    for (const key of subscriber.keys) {
      let set = this.subscribers.get(key);
      if (!set) this.subscribers.set(key, (set = new Set()));
      set.add(subscriber);
      this.idleSince.delete(key);
    }
  }

  private detach(subscriber: Subscriber): void {
    if (!this.all.delete(subscriber)) return;
    const now = this.options.clock.now();
    for (const key of subscriber.keys) {
      const set = this.subscribers.get(key);
      set?.delete(subscriber);
      if (set && set.size > 0) continue;
      this.subscribers.delete(key);
      this.idleSince.set(key, now);
    }
  }

  private send(subscriber: Subscriber, frame: string): boolean {
    if (subscriber.sink.write(frame)) return true;
    this.detach(subscriber);
    subscriber.sink.close();
    return false;
  }

  private ensureWatch(game: Game, item: WatchedItem, selection: MarketSelection, now: number) {
    const key = watchKey(game, item.id, selection);
    if (this.watches.has(key)) return;
    const watch = new Watch(key, game, item, selection, this.lastId);
    watch.refresh(this.options.book.sides(game, item.id), now);
    this.watches.set(key, watch);
    const byItem = `${game}|${item.id}`;
    let set = this.watchesByItem.get(byItem);
    if (!set) this.watchesByItem.set(byItem, (set = new Set()));
    set.add(watch);
  }

  private ensureHealth(game: Game, now: number): void {
    if (this.health.has(game) || !this.options.healthStatuses) return;
    const statuses = this.options.healthStatuses(game, now);
    this.health.set(game, { statuses, since: this.lastId });
  }

  private onBookChange(change: BookChange): void {
    if (this.watches.size === 0) return;
    const now = this.options.clock.now();
    this.holding = [];
    try {
      for (const itemId of change.itemIds) {
        const watches = this.watchesByItem.get(`${change.game}|${itemId}`);
        if (!watches) continue;
        const sides = this.options.book.sides(change.game, itemId);
        for (const watch of watches) this.publishAll(watch.key, watch.refresh(sides, now), now);
      }
    } finally {
      this.flushHeld();
    }
  }

  /** Writes each subscriber's frames of one change as one write (one syscall, not one per event). */
  private flushHeld(): void {
    const holding = this.holding ?? [];
    this.holding = null;
    for (const subscriber of holding) {
      const frames = subscriber.held!;
      subscriber.held = null;
      if (this.all.has(subscriber)) this.send(subscriber, frames.join(''));
    }
  }

  private tickStale(now: number): void {
    for (const watch of this.watches.values()) {
      if (watch.nextStaleAt > now) continue;
      const sides = this.options.book.sides(watch.game, watch.item.id);
      this.publishAll(watch.key, watch.refresh(sides, now), now);
    }
  }

  private readHealth(game: Game, now: number): void {
    const held = this.health.get(game);
    if (!held || !this.options.healthStatuses) return;
    const statuses = this.options.healthStatuses(game, now);
    for (const [id, status] of statuses) {
      if (held.statuses.get(id) !== status)
        this.publish(healthKey(game), 'health', { id, status }, now);
    }
    held.statuses = statuses;
  }

  private publishAll(key: string, events: readonly ItemEvent[], now: number): void {
    for (const event of events) this.publish(key, event.type, event.data, now);
  }

  private publish(key: string, type: StreamEventType, data: unknown, now: number): void {
    const id = Math.max(this.lastId + 1, now * 1000);
    this.lastId = id;
    const frame = sseFrame(id, type, data);
    this.buffer.push({ id, at: now, key, type, frame });
    if (this.buffer.length - this.bufferHead > (this.options.maxBuffered ?? DEFAULT_MAX_BUFFERED)) {
      this.dropOldest();
    }
    const subscribers = this.subscribers.get(key);
    if (!subscribers) return;
    for (const subscriber of [...subscribers]) {
      if (!subscriber.types.has(type)) continue;
      if (this.holding === null) this.send(subscriber, frame);
      else if (subscriber.held) subscriber.held.push(frame);
      else {
        subscriber.held = [frame];
        this.holding.push(subscriber);
      }
    }
  }

  private dropOldest(): void {
    this.droppedUpTo = this.buffer[this.bufferHead]!.id;
    this.bufferHead += 1;
  }

  private expire(now: number): void {
    while (
      this.bufferHead < this.buffer.length &&
      this.buffer[this.bufferHead]!.at < now - this.replayMs
    ) {
      this.dropOldest();
    }
    if (this.bufferHead > 4096 && this.bufferHead * 2 > this.buffer.length) {
      this.buffer.splice(0, this.bufferHead);
      this.bufferHead = 0;
    }
    for (const [key, since] of [...this.idleSince]) {
      if (now - since < this.replayMs) continue;
      this.idleSince.delete(key);
      this.forget(key);
    }
  }

  private forget(key: string): void {
    if (key.endsWith('|health')) {
      this.health.delete(key.split('|')[0] as Game);
      return;
    }
    const watch = this.watches.get(key);
    if (!watch) return;
    this.watches.delete(key);
    const byItem = `${watch.game}|${watch.item.id}`;
    const set = this.watchesByItem.get(byItem);
    set?.delete(watch);
    if (set?.size === 0) this.watchesByItem.delete(byItem);
  }
}
