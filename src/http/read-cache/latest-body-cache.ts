/**
 * Serialized latest-state bodies (pricing, NBBO, depth) kept per request URL and plan, so a
 * body that has not changed is not rebuilt per request. An entry is right from the moment it
 * was built until the first of:
 * - a book change event naming its item (any market, any side: the event is the only way the
 *   book changes the sides these bodies read);
 * - the next moment one of the item's sides turns stale (`isStale` flips at fetchedAt + 30 min
 *   + 1 ms), or any other time-dependent figure would change (found by `sameBodyUntil`);
 * - a clock read before its build (a clock set back).
 * The URL holds every parameter (path and query), so a different query shape is another entry;
 * the plan is part of the key so a plan-dependent body can never cross plans.
 *
 * Every hit is reported to `onHit` (demand ranking counts it as a lookup of its item, as it
 * would a read that resolved the item).
 *
 * Admission: a URL is cached from its second request on, so a client walking the catalog once
 * pays no more than the plain build. Memory is bounded by `maxEntries` (all dropped when full).
 */
import type { Book, BookChange } from '../../book/book.ts';
import { iso } from '../../domain/clock.ts';
import { staleFrom } from '../../domain/freshness.ts';
import type { Game } from '../../domain/games.ts';
import {
  ISO_LENGTH,
  renderTemplate,
  sameBodyUntil,
  toTemplate,
  type BodyAt,
  type BodyTemplate,
} from './body-template.ts';

/** No entry outlives this without being rebuilt (a body with no time-dependent figure). */
export const MAX_ENTRY_LIFE_MS = 60 * 60 * 1000;
/** About 8 kB each (template + last rendered body): at most ~32 MB per route module. */
const DEFAULT_MAX_ENTRIES = 4_096;

/** Called with each hit's item (demand ranking). */
export type OnHit = (game: Game, itemId: string, now: number) => void;

interface Entry {
  itemKey: string;
  itemId: string;
  builtAt: number;
  validUntil: number;
  template: BodyTemplate;
  /** The last rendered body and its ms: requests in the same ms share the bytes. */
  renderedAt: number;
  rendered: Buffer | null;
}

export interface BodyRequest {
  url: string;
  /** The route pattern that answered the URL (the fast path looks its gate up by it). */
  route: string;
  plan: string;
  game: Game;
  itemId: string;
  now: number;
}

/** Every plan's entry for one URL, and the route and game that URL was answered by. */
interface UrlEntries {
  route: string;
  game: Game;
  byPlan: Map<string, Entry>;
}

export class LatestBodyCache {
  /** url → the entries of that URL, one per plan */
  private readonly entries = new Map<string, UrlEntries>();
  /** `game:itemId` → urls with an entry for that item */
  private readonly urlsByItem = new Map<string, Set<string>>();
  /** URLs requested once and not yet cached (admission on the second request). */
  private readonly seen = new Set<string>();
  private size = 0;
  private readonly unsubscribe: () => void;
  private isoMs = Number.NaN;
  private isoText = '';

  constructor(
    private readonly book: Book,
    private readonly onHit: OnHit | undefined = undefined,
    private readonly maxEntries = DEFAULT_MAX_ENTRIES,
  ) {
    this.unsubscribe = book.onChange((change) => this.invalidate(change));
  }

  /** The cached body for `url` and `plan` at `now`, or null (build it, then `store`). */
  lookup(url: string, plan: string, now: number): Buffer | null {
    const held = this.entries.get(url);
    const entry = held?.byPlan.get(plan);
    if (entry === undefined || now < entry.builtAt || now >= entry.validUntil) return null;
    if (entry.renderedAt !== now || entry.rendered === null) {
      const calculatedAt = this.isoOf(now);
      if (calculatedAt.length !== ISO_LENGTH) return null;
      entry.rendered = renderTemplate(entry.template, calculatedAt);
      entry.renderedAt = now;
    }
    this.onHit?.(held!.game, entry.itemId, now);
    return entry.rendered;
  }

  /**
   * Builds the body at `request.now` with `bodyAt` and returns it; from the URL's second
   * request on, also keeps it for as long as it stays right.
   */
  build(request: BodyRequest, bodyAt: BodyAt): string {
    const json = bodyAt(request.now);
    if (!this.seen.has(request.url)) {
      if (this.seen.size >= this.maxEntries) this.seen.clear();
      this.seen.add(request.url);
      return json;
    }
    const calculatedAt = iso(request.now);
    if (calculatedAt.length !== ISO_LENGTH) return json;
    const horizon = Math.min(
      this.nextStalenessFlip(request.game, request.itemId, request.now),
      request.now + MAX_ENTRY_LIFE_MS,
    );
    const validUntil = sameBodyUntil(bodyAt, request.now, horizon);
    this.put(request, {
      itemKey: `${request.game}:${request.itemId}`,
      itemId: request.itemId,
      builtAt: request.now,
      validUntil,
      template: toTemplate(json, calculatedAt),
      renderedAt: Number.NaN,
      rendered: null,
    });
    return json;
  }

  /** The route pattern and game a cached URL was answered by; undefined when none is held. */
  held(url: string): Readonly<Pick<UrlEntries, 'route' | 'game'>> | undefined {
    return this.entries.get(url);
  }

  /** Entries currently held (for tests). */
  entryCount(): number {
    return this.size;
  }

  close(): void {
    this.unsubscribe();
    this.clear();
  }

  /** The first ms after `now` at which a side of the item turns stale (+∞ when none will). */
  private nextStalenessFlip(game: Game, itemId: string, now: number): number {
    let next = Number.POSITIVE_INFINITY;
    for (const entry of this.book.sides(game, itemId)) {
      for (const side of [entry.ask, entry.bid]) {
        if (side === null) continue;
        const flip = staleFrom(side.fetchedAt);
        if (flip > now && flip < next) next = flip;
      }
    }
    return next;
  }

  private put(request: BodyRequest, entry: Entry): void {
    if (this.size >= this.maxEntries) this.clear();
    let held = this.entries.get(request.url);
    if (!held) {
      held = { route: request.route, game: request.game, byPlan: new Map() };
      this.entries.set(request.url, held);
    }
    if (!held.byPlan.has(request.plan)) this.size += 1;
    held.byPlan.set(request.plan, entry);
    let urls = this.urlsByItem.get(entry.itemKey);
    if (!urls) this.urlsByItem.set(entry.itemKey, (urls = new Set()));
    urls.add(request.url);
  }

  private invalidate(change: BookChange): void {
    if (this.size === 0) return;
    const prefix = `${change.game}:`;
    if (change.itemIds.size <= this.urlsByItem.size) {
      for (const itemId of change.itemIds) this.dropItem(prefix + itemId);
      return;
    }
    for (const itemKey of [...this.urlsByItem.keys()]) {
      if (itemKey.startsWith(prefix) && change.itemIds.has(itemKey.slice(prefix.length))) {
        this.dropItem(itemKey);
      }
    }
  }

  private dropItem(itemKey: string): void {
    const urls = this.urlsByItem.get(itemKey);
    if (!urls) return;
    this.urlsByItem.delete(itemKey);
    for (const url of urls) {
      const held = this.entries.get(url);
      if (!held) continue;
      this.size -= held.byPlan.size;
      this.entries.delete(url);
    }
  }

  private clear(): void {
    this.entries.clear();
    this.urlsByItem.clear();
    this.size = 0;
  }

  private isoOf(now: number): string {
    if (now !== this.isoMs) {
      this.isoMs = now;
      this.isoText = iso(now);
    }
    return this.isoText;
  }
}
