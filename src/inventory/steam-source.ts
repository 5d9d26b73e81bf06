/**
 * The Steam inventory source: the public endpoint `GET {origin}/inventory/{steamid}/{appid}/
 * {contextid}?l=english&count=N[&start_assetid=…]`, paged by `last_assetid` while `more_items`
 * is set. Budget (docs/api/inventory.md): at most `pagesPerFetch` pages per inventory, and at most
 * `requests` pages per `windowMs` across all fetches (default 20 per minute, well under the rate
 * at which Steam answers 429), of which keyless fetches (the web terminal's) may use at most
 * `keylessRequests` (default 5), so keyed users keep the rest; a 429 blocks the budget for its
 * Retry-After (60 s without one). A completed fetch is cached per Steam ID / app / context for
 * `cacheMs` (default 5 minutes). Never logs in: no cookies, no keys.
 */
import type { Clock } from '../domain/clock.ts';
import type { InventoryItem } from '../domain/inventory.ts';
import { RequestBudget } from '../markets/http/request-budget.ts';
import { pageItems } from './items.ts';
import { InventorySourceError, parseSteamPage, type SteamPage } from './steam-page.ts';

export const DEFAULT_INVENTORY_ORIGIN = 'https://steamcommunity.com';

export interface InventorySourceOptions {
  origin: string;
  clock: Clock;
  pageSize?: number;
  pagesPerFetch?: number;
  requests?: number;
  /** Of `requests`, how many keyless fetches (the web terminal's) may use per window. */
  keylessRequests?: number;
  windowMs?: number;
  cacheMs?: number;
  timeoutMs?: number;
}

export interface InventoryTarget {
  steamId: string;
  appId: number;
  contextId: number;
  /** Started without an API key (the web terminal): held to the keyless share of the budget. */
  keyless?: boolean;
}

export interface InventorySource {
  fetchItems(target: InventoryTarget): Promise<InventoryItem[]>;
}

const RETRY_AFTER_DEFAULT_MS = 60_000;

function statusSentence(status: number): string {
  if (status === 403 || status === 401) return 'The inventory is private.';
  if (status === 400 || status === 404) return 'Steam knows no inventory for this Steam ID.';
  if (status === 429) return 'Steam is rate limiting inventory requests; try again later.';
  return `Steam answered HTTP ${status} to the inventory request.`;
}

function retryAfterMs(header: string | null): number {
  const seconds = Number(header);
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : RETRY_AFTER_DEFAULT_MS;
}

export function createSteamInventorySource(options: InventorySourceOptions): InventorySource {
  const pageSize = options.pageSize ?? 2000;
  const pagesPerFetch = options.pagesPerFetch ?? 5;
  const cacheMs = options.cacheMs ?? 300_000;
  const windowMs = options.windowMs ?? 60_000;
  const budget = new RequestBudget([{ requests: options.requests ?? 20, windowMs }]);
  const keylessBudget = new RequestBudget([{ requests: options.keylessRequests ?? 5, windowMs }]);
  const cache = new Map<string, { at: number; items: InventoryItem[] }>();

  async function page(target: InventoryTarget, start: string | null): Promise<SteamPage> {
    const now = options.clock.now();
    if (budget.waitAt(now) > 0) {
      throw new InventorySourceError('The inventory request budget is spent; try again later.');
    }
    if (target.keyless && keylessBudget.waitAt(now) > 0) {
      throw new InventorySourceError(
        'The keyless share of the inventory request budget is spent; try again later.',
      );
    }
    budget.spend(now);
    if (target.keyless) keylessBudget.spend(now);
    const path = `/inventory/${target.steamId}/${target.appId}/${target.contextId}`;
    const query = `?l=english&count=${pageSize}${start ? `&start_assetid=${start}` : ''}`;
    let response: Response;
    let text: string;
    try {
      response = await fetch(new URL(path + query, options.origin), {
        signal: AbortSignal.timeout(options.timeoutMs ?? 20_000),
        headers: { accept: 'application/json' },
      });
      text = await response.text();
    } catch {
      throw new InventorySourceError('Steam could not be reached for the inventory.');
    }
    if (response.status === 429) {
      budget.block(now + retryAfterMs(response.headers.get('retry-after')));
    }
    if (response.status !== 200) throw new InventorySourceError(statusSentence(response.status));
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new InventorySourceError('Steam answered the inventory request with a non-JSON page.');
    }
    return parseSteamPage(body);
  }

  async function fetchAll(target: InventoryTarget): Promise<InventoryItem[]> {
    const items: InventoryItem[] = [];
    let start: string | null = null;
    for (let count = 0; count < pagesPerFetch; count++) {
      const current = await page(target, start);
      items.push(...pageItems(current, target.steamId));
      if (!current.moreItems || !current.lastAssetId) return items;
      start = current.lastAssetId;
    }
    throw new InventorySourceError(
      `The inventory holds more than ${pagesPerFetch} pages of ${pageSize} items, the per-fetch budget.`,
    );
  }

  return {
    async fetchItems(target) {
      const key = `${target.steamId}/${target.appId}/${target.contextId}`;
      const cached = cache.get(key);
      if (cached && options.clock.now() - cached.at < cacheMs) return cached.items;
      const items = await fetchAll(target);
      cache.set(key, { at: options.clock.now(), items });
      if (cache.size > 10_000) cache.delete(cache.keys().next().value!);
      return items;
    },
  };
}
