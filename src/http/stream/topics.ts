/**
 * What the stream hub (hub.ts) keeps per topic: one watched item under one market selection,
 * or a game's market health. A topic holds its events of the replay window with their
 * positions; the ids a stream sees are numbered from those positions (`position × ID_SPAN +`
 * the event's index among the stream's events at that position), so replaying a stream's
 * topics numbers each event exactly as it was first sent, on any process that derived it.
 */
import type { Game } from '../../domain/games.ts';
import { isGame } from '../../domain/games.ts';
import type { MarketId } from '../../domain/markets.ts';
import type { MarketSelection } from '../../pricing/top-of-book.ts';
import type { Watch } from './watch.ts';

export type StreamEventType = 'quote' | 'nbbo' | 'stale' | 'health';
export const STREAM_EVENT_TYPES: readonly StreamEventType[] = ['quote', 'nbbo', 'stale', 'health'];

/** Event ids per position: more than a stream of 1,000 items can receive at one position. */
export const ID_SPAN = 65_536;

export interface TopicEvent {
  position: number;
  type: StreamEventType;
  /** `\nevent: …\ndata: …\n\n`: the frame after its id line. */
  tail: string;
}

export interface Topic<S> {
  key: string;
  game: Game;
  /** null for a game's health topic. */
  watch: Watch | null;
  statuses: ReadonlyMap<MarketId, string>;
  /** The position it began at: a resume needs a point at or after it. */
  since: number;
  events: TopicEvent[];
  head: number;
  subscribers: Set<S>;
  /** Clock time it was last wanted (a stream here left, or another process announced it). */
  wantedAt: number;
  announcedAt: number;
}

export const frameTail = (type: string, json: string) => `\nevent: ${type}\ndata: ${json}\n\n`;
/** The last id of a position (a snapshot taken there carries it). */
export const endOf = (position: number) => position * ID_SPAN + ID_SPAN - 1;
export const healthKey = (game: Game) => `${game}|health`;
export const byKey = (a: { key: string }, b: { key: string }) =>
  a.key < b.key ? -1 : a.key > b.key ? 1 : 0;

/** `${game}|${id}|${markets or *}` back to its parts, or null. */
export function parseWatchKey(key: string) {
  const [game, id, markets] = key.split('|');
  if (!isGame(game) || !id || markets === undefined) return null;
  const selection: MarketSelection = {
    markets: markets === '*' ? null : new Set(markets.split(',') as MarketId[]),
  };
  return { game, id, selection };
}

/** The index of the topic's first held event at or after `position`. */
function firstAt(topic: Topic<unknown>, position: number): number {
  let low = topic.head;
  let high = topic.events.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (topic.events[mid]!.position < position) low = mid + 1;
    else high = mid;
  }
  return low;
}

/**
 * The frames of a stream on `topics` after `lastEventId`: its events in position order, by
 * topic key within a position (the order the hub derives them in), numbered per position.
 */
export function replayFrames(
  topics: readonly Topic<unknown>[],
  types: ReadonlySet<StreamEventType>,
  lastEventId: number,
): string[] {
  const from = Math.floor(lastEventId / ID_SPAN);
  const events: TopicEvent[] = [];
  for (const topic of [...topics].sort(byKey)) {
    for (let index = firstAt(topic, from); index < topic.events.length; index += 1) {
      const event = topic.events[index]!;
      if (types.has(event.type)) events.push(event);
    }
  }
  events.sort((a, b) => a.position - b.position);
  const frames: string[] = [];
  let position = -1;
  let index = 0;
  for (const event of events) {
    index = event.position === position ? index + 1 : 0;
    position = event.position;
    const id = position * ID_SPAN + index;
    if (id > lastEventId) frames.push(`id: ${id}${event.tail}`);
  }
  return frames;
}

/** The topics by key, and the item topics by `${game}|${itemId}`. */
export class TopicIndex<S> {
  private readonly byKey = new Map<string, Topic<S>>();
  private readonly byItem = new Map<string, Set<Topic<S>>>();

  get size(): number {
    return this.byKey.size;
  }

  get(key: string): Topic<S> | undefined {
    return this.byKey.get(key);
  }

  has(key: string): boolean {
    return this.byKey.has(key);
  }

  values(): IterableIterator<Topic<S>> {
    return this.byKey.values();
  }

  watchesItem(byItem: string): boolean {
    return this.byItem.has(byItem);
  }

  ofItem(byItem: string): Iterable<Topic<S>> {
    return this.byItem.get(byItem) ?? [];
  }

  add(key: string, game: Game, watch: Watch | null, since: number, now: number): Topic<S> {
    const topic: Topic<S> = {
      key,
      game,
      watch,
      statuses: new Map(),
      since,
      events: [],
      head: 0,
      subscribers: new Set(),
      wantedAt: now,
      announcedAt: now,
    };
    this.byKey.set(key, topic);
    if (!watch) return topic;
    const byItem = `${game}|${watch.item.id}`;
    let set = this.byItem.get(byItem);
    if (!set) this.byItem.set(byItem, (set = new Set()));
    set.add(topic);
    return topic;
  }

  forget(topic: Topic<S>): void {
    this.byKey.delete(topic.key);
    if (!topic.watch) return;
    const byItem = `${topic.game}|${topic.watch.item.id}`;
    const set = this.byItem.get(byItem);
    set?.delete(topic);
    if (set?.size === 0) this.byItem.delete(byItem);
  }
}
