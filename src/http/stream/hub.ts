/**
 * The price-stream hub of one API process. Time moves in positions: each applied book change
 * (and each idle tick) is one position with a time `at`. At every position the hub refreshes
 * the topics (one watched item under one market selection, or a game's market health) whose
 * item changed, whose quotes turned stale by `at` or whose health is due, in key order, and
 * records their events: quote / nbbo / stale (watch.ts) and health. Each event's JSON is
 * built once per topic, whatever the number of streams; a stream's frames of the positions
 * derived in one turn of the event loop go out in one write.
 * - Event ids: position × ID_SPAN + the event's index among the stream's events at that
 *   position, so ids increase strictly along a stream. A snapshot (and a reset) carries the
 *   id that ends its position.
 * - Positions: on its own (`positions` absent; the embedded default) the hub numbers book
 *   changes itself, from the clock in tenths of a second upwards. Scaled out, positions come
 *   from the shared change bus (events/bus-positions.ts): every API process applies the same
 *   changes at the same positions and times, and learns of every topic some other process's
 *   streams watch, so each derives the same events with the same ids and a stream resumes on
 *   any of them.
 * - Replay: events stay `replayMs` (default 10 min, at most `maxBuffered`); a resume from id
 *   L replays the stream's events after L when each of its topics was watched at L's position
 *   and nothing after it was dropped; otherwise it is a reset and a fresh snapshot.
 * - `tick(now)` (a 1 s timer, or a test with a manual clock) moves time on (a position of its
 *   own, or an idle tick asked of the bus), writes `: ping` every 15 s and drops expired
 *   events and topics.
 */
import type { Book } from '../../book/book.ts';
import type { Clock } from '../../domain/clock.ts';
import type { Game } from '../../domain/games.ts';
import { isGame } from '../../domain/games.ts';
import type { MarketId } from '../../domain/markets.ts';
import { POSITION_FLOOR_MS, type PositionFeed } from '../../events/bus-positions.ts';
import type { FeeModel } from '../../markets/fees.ts';
import { computeNbbo } from '../../pricing/nbbo.ts';
import { pricingSnapshot } from '../../pricing/snapshot.ts';
import type { MarketSelection } from '../../pricing/top-of-book.ts';
import {
  byKey,
  endOf,
  frameTail,
  healthKey,
  ID_SPAN,
  parseWatchKey,
  replayFrames,
  TopicIndex,
  type StreamEventType,
  type Topic,
} from './topics.ts';
import { Watch, watchKey, type WatchedItem } from './watch.ts';

export { STREAM_EVENT_TYPES, ID_SPAN, type StreamEventType } from './topics.ts';

export const PING_EVERY_MS = 15_000;
export const DEFAULT_REPLAY_MS = 10 * 60_000;
export const DEFAULT_MAX_BUFFERED = 200_000;
/** Scaled out, an idle tick is asked of the bus after this long without a position. */
export const IDLE_TICK_MS = 1_000;
/** Scaled out, topics with streams here are announced again this often. */
export const ANNOUNCE_EVERY_MS = 60_000;

export interface StreamSink {
  /** Writes SSE frames; false when the client is too slow (the hub then drops it). */
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
  /** Positions from the shared change bus; absent: the hub numbers its own. */
  positions?: PositionFeed;
  /** Names a canonical id (topics announced by other processes carry only ids). */
  resolveItem?: (game: Game, id: string) => WatchedItem | undefined;
  replayMs?: number;
  maxBuffered?: number;
  healthEveryMs?: number;
  /** The tick timer's period; 0 leaves ticking to the caller (tests). */
  tickMs?: number;
}

interface Subscriber {
  keys: readonly string[];
  types: ReadonlySet<StreamEventType>;
  sink: StreamSink;
  lastPingAt: number;
  /** Frames derived in this turn of the event loop, written together at its end. */
  outbox: string[] | null;
}

export function sseFrame(id: number, type: string, data: unknown): string {
  return `id: ${id}\nevent: ${type}\ndata: ${JSON.stringify(data)}\n\n`;
}

export class StreamHub {
  private position: number;
  private stamp: number;
  private droppedUpTo: number;
  private readonly positions: { position: number; at: number }[] = [];
  private positionsHead = 0;
  private buffered = 0;
  /** Health is read when `at` enters a new period of `healthEveryMs` (the same on every process). */
  private healthBucket: number;
  private lastPositionSeenAt: number;
  private readonly topics = new TopicIndex<Subscriber>();
  private readonly changed = new Set<string>();
  private readonly all = new Set<Subscriber>();
  private readonly outboxes = new Set<Subscriber>();
  private readonly waiters: { position: number; done: (reached: boolean) => void }[] = [];
  private readonly unlisten: (() => void)[] = [];
  private readonly timer: ReturnType<typeof setInterval> | null;
  readonly replayMs: number;

  constructor(private readonly options: StreamHubOptions) {
    this.replayMs = options.replayMs ?? DEFAULT_REPLAY_MS;
    const now = options.clock.now();
    this.stamp = now;
    this.healthBucket = Math.floor(now / (options.healthEveryMs ?? 5_000));
    this.lastPositionSeenAt = now;
    this.position = options.positions ? 0 : Math.floor(now / POSITION_FLOOR_MS);
    this.droppedUpTo = this.position;
    this.unlisten.push(options.book.onChange((change) => this.onBookChange(change)));
    const feed = options.positions;
    if (feed) {
      this.unlisten.push(feed.onPosition((at) => this.advance(at.position, at.at, at.watch)));
      this.unlisten.push(feed.onCut(() => this.cut()));
      feed.tick();
    }
    const tickMs = options.tickMs ?? 1000;
    this.timer = tickMs > 0 ? setInterval(() => this.tick(), tickMs) : null;
    this.timer?.unref();
  }

  /** The id a snapshot taken now carries (the end of the current position). */
  currentId(): number {
    return endOf(this.position);
  }

  currentPosition(): number {
    return this.position;
  }

  openStreams(): number {
    return this.all.size;
  }

  /** Resolves true once the hub has passed the position of `eventId`, false after `timeoutMs`. */
  reach(eventId: number, timeoutMs: number): Promise<boolean> {
    const position = Math.floor(eventId / ID_SPAN);
    if (position <= this.position || !this.options.positions) return Promise.resolve(true);
    return new Promise((resolve) => {
      const waiter = { position, done: resolve };
      this.waiters.push(waiter);
      setTimeout(() => {
        const index = this.waiters.indexOf(waiter);
        if (index >= 0) this.waiters.splice(index, 1);
        resolve(false);
      }, timeoutMs).unref();
    });
  }

  /** Starts a stream: snapshot (or replay, or reset + snapshot); returns its unsubscribe. */
  subscribe(request: Subscription): () => void {
    const now = this.options.clock.now();
    if (!this.options.positions && now > this.stamp) this.advance(this.nextOwnPosition(now), now);
    const keys = request.items.map((item) => watchKey(request.game, item.id, request.selection));
    if (request.types.has('health')) keys.push(healthKey(request.game));
    const resumable = request.lastEventId !== null && this.canResume(keys, request.lastEventId);
    const fresh: string[] = [];
    for (const item of request.items) {
      const key = watchKey(request.game, item.id, request.selection);
      if (!this.topics.has(key)) fresh.push(key);
      this.ensureWatch(key, request.game, item, request.selection);
    }
    if (request.types.has('health')) {
      if (!this.topics.has(healthKey(request.game))) fresh.push(healthKey(request.game));
      this.ensureHealth(request.game);
    }
    if (fresh.length > 0) this.announce(fresh, now);
    const subscriber: Subscriber = {
      keys,
      types: request.types,
      sink: request.sink,
      lastPingAt: now,
      outbox: null,
    };
    this.attach(subscriber);
    if (resumable) {
      this.replay(subscriber, request.lastEventId!);
    } else {
      if (request.lastEventId !== null) {
        const reason = 'the resume point is no longer buffered';
        if (!this.send(subscriber, sseFrame(this.currentId(), 'reset', { reason })))
          return () => {};
      }
      this.send(subscriber, this.snapshotFrame(request));
    }
    return () => {
      this.flush(subscriber);
      this.detach(subscriber);
    };
  }

  /** Moves time on to `now`, writes pings, drops what expired. */
  tick(now = this.options.clock.now()): void {
    const feed = this.options.positions;
    if (!feed) {
      if (now > this.stamp) this.advance(this.nextOwnPosition(now), now);
    } else if (now - this.lastPositionSeenAt >= IDLE_TICK_MS) {
      this.lastPositionSeenAt = now;
      feed.tick();
    }
    if (feed) this.announceDue(now);
    for (const subscriber of [...this.all]) {
      if (now - subscriber.lastPingAt < PING_EVERY_MS) continue;
      subscriber.lastPingAt = now;
      this.send(subscriber, ': ping\n\n');
    }
    this.expire(now);
  }

  /**
   * Derives the events of `position` (time `at`): topics whose item changed since the last
   * position, whose quotes turned stale by `at`, or whose health is due, in key order; then
   * starts the topics announced at it. Every process derives the same events here.
   */
  advance(position: number, at: number, announced: readonly string[] = []): void {
    if (position <= this.position) return;
    this.position = position;
    this.stamp = at;
    this.lastPositionSeenAt = this.options.clock.now();
    this.positions.push({ position, at });
    const touched = this.touchedTopics(at);
    const held = new Map<Subscriber, string[]>();
    for (const topic of touched) this.refresh(topic, position, at, held);
    for (const [subscriber, frames] of held) this.post(subscriber, frames.join(''));
    for (const key of announced) this.ensureAnnounced(key);
    this.settleWaiters();
  }

  /** Ends every open stream (clients resume by id elsewhere). */
  endStreams(): void {
    for (const subscriber of [...this.all]) {
      this.flush(subscriber);
      this.detach(subscriber);
      subscriber.sink.close();
    }
  }

  close(): void {
    for (const stop of this.unlisten) stop();
    if (this.timer) clearInterval(this.timer);
    for (const waiter of this.waiters.splice(0)) waiter.done(false);
    this.endStreams();
  }

  /** Queues frames for the end of this turn: positions derived together go out in one write. */
  private post(subscriber: Subscriber, frames: string): void {
    if (subscriber.outbox) {
      subscriber.outbox.push(frames);
      return;
    }
    subscriber.outbox = [frames];
    this.outboxes.add(subscriber);
    if (this.outboxes.size === 1) setImmediate(() => this.flushAll());
  }

  private flushAll(): void {
    for (const subscriber of [...this.outboxes]) this.flush(subscriber);
  }

  private flush(subscriber: Subscriber): void {
    const outbox = subscriber.outbox;
    if (!outbox) return;
    subscriber.outbox = null;
    this.outboxes.delete(subscriber);
    if (this.all.has(subscriber)) this.send(subscriber, outbox.join(''));
  }

  private nextOwnPosition(now: number): number {
    return Math.max(this.position + 1, Math.floor(now / POSITION_FLOOR_MS));
  }

  private onBookChange(change: { game: Game; itemIds: ReadonlySet<string> }): void {
    if (this.topics.size === 0) return;
    for (const itemId of change.itemIds) {
      const byItem = `${change.game}|${itemId}`;
      if (this.topics.watchesItem(byItem)) this.changed.add(byItem);
    }
    if (this.options.positions || this.changed.size === 0) return;
    const now = this.options.clock.now();
    this.advance(this.nextOwnPosition(now), now);
  }

  private touchedTopics(at: number): Topic<Subscriber>[] {
    const touched = new Set<Topic<Subscriber>>();
    for (const byItem of this.changed) {
      for (const topic of this.topics.ofItem(byItem)) touched.add(topic);
    }
    this.changed.clear();
    const healthBucket = Math.floor(at / (this.options.healthEveryMs ?? 5_000));
    const healthDue = healthBucket > this.healthBucket;
    this.healthBucket = healthBucket;
    for (const topic of this.topics.values()) {
      if (topic.watch ? topic.watch.nextStaleAt <= at : healthDue) touched.add(topic);
    }
    return [...touched].sort(byKey);
  }

  private refresh(
    topic: Topic<Subscriber>,
    position: number,
    at: number,
    held: Map<Subscriber, string[]>,
  ) {
    const events = topic.watch
      ? topic.watch.refresh(this.options.book.sides(topic.game, topic.watch.item.id), at)
      : this.healthChanges(topic, at);
    for (const event of events) {
      const tail = frameTail(event.type, JSON.stringify(event.data));
      topic.events.push({ position, type: event.type, tail });
      this.buffered += 1;
      for (const subscriber of topic.subscribers) {
        if (!subscriber.types.has(event.type)) continue;
        let frames = held.get(subscriber);
        if (!frames) held.set(subscriber, (frames = []));
        frames.push(`id: ${position * ID_SPAN + frames.length}${tail}`);
      }
    }
  }

  private healthChanges(topic: Topic<Subscriber>, at: number) {
    const statuses = this.options.healthStatuses?.(topic.game, at) ?? new Map<MarketId, string>();
    const changes: { type: 'health'; data: { id: MarketId; status: string } }[] = [];
    for (const [id, status] of statuses) {
      if (topic.statuses.get(id) !== status) changes.push({ type: 'health', data: { id, status } });
    }
    topic.statuses = statuses;
    return changes;
  }

  private snapshotFrame(request: Subscription): string {
    const feeModel = this.options.feeModel;
    const at = this.stamp;
    const items = request.items.map((item) => {
      const sides = this.options.book.sides(request.game, item.id);
      const pricing = pricingSnapshot(item, sides, request.selection, at);
      return {
        marketHashName: item.marketHashName,
        canonicalItemId: item.id,
        nbbo: computeNbbo(item, sides, request.selection, feeModel, at),
        markets: pricing.markets,
        buyOrders: pricing.buyOrders,
      };
    });
    return sseFrame(this.currentId(), 'snapshot', { items });
  }

  /**
   * Whether every event after `lastEventId` is held: its position is not ahead of the hub,
   * no event after it was dropped, and each topic was watched since its position ended.
   */
  private canResume(keys: readonly string[], lastEventId: number): boolean {
    if (lastEventId > this.currentId() || lastEventId < endOf(this.droppedUpTo)) return false;
    return keys.every((key) => {
      const since = this.topics.get(key)?.since;
      return since !== undefined && lastEventId >= endOf(since);
    });
  }

  /** The stream's events after `lastEventId`, numbered exactly as they were first sent. */
  private replay(subscriber: Subscriber, lastEventId: number): void {
    const topics = subscriber.keys.map((key) => this.topics.get(key)!);
    const frames = replayFrames(topics, subscriber.types, lastEventId);
    if (frames.length > 0) this.send(subscriber, frames.join(''));
  }

  private attach(subscriber: Subscriber): void {
    this.all.add(subscriber);
    for (const key of subscriber.keys) this.topics.get(key)?.subscribers.add(subscriber);
  }

  private detach(subscriber: Subscriber): void {
    if (!this.all.delete(subscriber)) return;
    const now = this.options.clock.now();
    for (const key of subscriber.keys) {
      const topic = this.topics.get(key);
      if (!topic) continue;
      topic.subscribers.delete(subscriber);
      topic.wantedAt = now;
    }
  }

  private send(subscriber: Subscriber, frame: string): boolean {
    if (subscriber.sink.write(frame)) return true;
    this.detach(subscriber);
    subscriber.sink.close();
    return false;
  }

  private addTopic(key: string, game: Game, watch: Watch | null): Topic<Subscriber> {
    return this.topics.add(key, game, watch, this.position, this.options.clock.now());
  }

  private ensureWatch(key: string, game: Game, item: WatchedItem, selection: MarketSelection) {
    const held = this.topics.get(key);
    if (held) return held;
    const watch = new Watch(key, game, item, selection, this.position);
    watch.refresh(this.options.book.sides(game, item.id), this.stamp);
    return this.addTopic(key, game, watch);
  }

  private ensureHealth(game: Game): Topic<Subscriber> {
    const held = this.topics.get(healthKey(game));
    if (held) return held;
    const topic = this.addTopic(healthKey(game), game, null);
    topic.statuses = this.options.healthStatuses?.(game, this.stamp) ?? new Map();
    return topic;
  }

  /** A topic another process's stream watches (or this one's, heard back from the bus). */
  private ensureAnnounced(key: string): void {
    const held = this.topics.get(key);
    if (held) {
      held.wantedAt = this.options.clock.now();
      return;
    }
    const [game, part] = key.split('|');
    if (isGame(game) && part === 'health') {
      this.ensureHealth(game);
      return;
    }
    const parsed = parseWatchKey(key);
    const item = parsed && this.options.resolveItem?.(parsed.game, parsed.id);
    if (parsed && item) this.ensureWatch(key, parsed.game, item, parsed.selection);
  }

  private announce(keys: readonly string[], now: number): void {
    const feed = this.options.positions;
    if (!feed) return;
    for (const key of keys) {
      const topic = this.topics.get(key);
      if (topic) topic.announcedAt = now;
    }
    feed.announce(keys);
  }

  /** Topics with streams here, not announced for ANNOUNCE_EVERY_MS, are announced again. */
  private announceDue(now: number): void {
    const due: string[] = [];
    for (const topic of this.topics.values()) {
      if (topic.subscribers.size > 0 && now - topic.announcedAt >= ANNOUNCE_EVERY_MS) {
        due.push(topic.key);
      }
    }
    if (due.length > 0) this.announce(due, now);
  }

  private settleWaiters(): void {
    for (let index = this.waiters.length - 1; index >= 0; index -= 1) {
      const waiter = this.waiters[index]!;
      if (waiter.position > this.position) continue;
      this.waiters.splice(index, 1);
      waiter.done(true);
    }
  }

  /** Events may have been lost on the bus: nothing before now resumes; streams reconnect. */
  private cut(): void {
    this.dropUpTo(this.position);
    this.endStreams();
  }

  private dropUpTo(position: number): void {
    this.droppedUpTo = Math.max(this.droppedUpTo, position);
    for (const topic of this.topics.values()) {
      while (
        topic.head < topic.events.length &&
        topic.events[topic.head]!.position <= this.droppedUpTo
      ) {
        topic.head += 1;
        this.buffered -= 1;
      }
      if (topic.head > 1024 && topic.head * 2 > topic.events.length) {
        topic.events.splice(0, topic.head);
        topic.head = 0;
      }
    }
  }

  private expire(now: number): void {
    const cutoff = this.stamp - this.replayMs;
    let upTo = this.droppedUpTo;
    while (this.positionsHead < this.positions.length) {
      const oldest = this.positions[this.positionsHead]!;
      if (oldest.at >= cutoff) break;
      upTo = oldest.position;
      this.positionsHead += 1;
    }
    this.dropUpTo(upTo);
    const maxBuffered = this.options.maxBuffered ?? DEFAULT_MAX_BUFFERED;
    while (this.buffered > maxBuffered && this.positionsHead < this.positions.length) {
      this.dropUpTo(this.positions[this.positionsHead]!.position);
      this.positionsHead += 1;
    }
    if (this.positionsHead > 4096 && this.positionsHead * 2 > this.positions.length) {
      this.positions.splice(0, this.positionsHead);
      this.positionsHead = 0;
    }
    const keepFor = this.replayMs + (this.options.positions ? ANNOUNCE_EVERY_MS : 0);
    for (const topic of [...this.topics.values()]) {
      if (topic.subscribers.size === 0 && now - topic.wantedAt >= keepFor) {
        this.buffered -= topic.events.length - topic.head;
        this.topics.forget(topic);
      }
    }
  }
}
