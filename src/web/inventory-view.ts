/**
 * The inventory page: a Steam ID in (`#/inventory`), the fetch followed until it ends
 * (`#/inventory/<snapshot id>`), then the valued table and the totals, read again every
 * VALUATION_REFRESH_MS because the service prices a snapshot at the moment of each read.
 * Nothing is filled in: a missing price shows "—", a stale input STALE, and an item Steam marks
 * not marketable, or that the catalog does not know, says so.
 */
import { api, RateLimited, type Game, type InventoryData } from './api.ts';
import { el, gridTable, itemHref, replaceChildren, stat } from './dom.ts';
import { dollars, hours } from './format.ts';
import { poll, type Poller } from './poller.ts';

export const FETCH_POLL_MS = 1_500;
export const VALUATION_REFRESH_MS = 30_000;
const RUST_APP_ID = 252490;

type Item = NonNullable<InventoryData['items']>[number];
type Valuation = NonNullable<InventoryData['valuation']>;
type Valued = Valuation['items'][number];

function errorText(error: unknown): string {
  if (error instanceof RateLimited) return `Rate limited: retrying in ${error.retryAfterSeconds}s`;
  return error instanceof Error ? error.message : String(error);
}

interface SteamIdForm {
  form: HTMLFormElement;
  /** Shows the Steam ID and game of the snapshot on the page. */
  fill(steamId: string, game: Game): void;
}

function steamIdForm(status: HTMLElement): SteamIdForm {
  const input = el('input', {
    id: 'steam-id',
    name: 'steamId',
    required: true,
    inputmode: 'numeric',
    pattern: '7656119[0-9]{10}',
    placeholder: 'Steam64 id, 7656119…',
    'aria-label': 'Steam ID',
    autocomplete: 'off',
  });
  const game = el(
    'select',
    { id: 'inventory-game', 'aria-label': 'Game' },
    el('option', { value: 'cs2' }, 'CS2'),
    el('option', { value: 'rust' }, 'Rust'),
  );
  const form = el(
    'form',
    { id: 'inventory-form', class: 'inline-form' },
    input,
    game,
    el('button', { type: 'submit' }, 'Value inventory'),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    status.textContent = 'Starting the fetch…';
    status.className = 'status-line';
    api
      .startInventory(input.value.trim(), game.value as Game)
      .then((snapshot) => {
        location.hash = `#/inventory/${encodeURIComponent(snapshot.id)}`;
      })
      .catch((error: unknown) => {
        status.textContent = errorText(error);
        status.className = 'status-line error';
      });
  });
  const fill = (steamId: string, chosen: Game) => {
    input.value = steamId;
    game.value = chosen;
  };
  return { form, fill };
}

const gameOf = (data: InventoryData): Game => (data.appId === RUST_APP_ID ? 'rust' : 'cs2');

function notes(item: Item, valued: Valued | undefined): HTMLElement | string {
  if (!item.marketable) return 'not marketable';
  if (item.canonicalItemId === null) return 'not in catalog';
  if (!valued || (valued.bestAsk === null && valued.bestCashBid === null)) return 'unpriced';
  return valued.isStale ? el('span', { class: 'stale' }, 'STALE') : '';
}

function quote(value: { market: string; price: number } | null): string {
  return value ? `${dollars(value.price)} ${value.market}` : '—';
}

function itemRow(item: Item, valued: Valued | undefined, game: Game): HTMLElement {
  const shown = valued?.catalogName ?? item.marketHashName;
  const name =
    item.canonicalItemId === null ? shown : el('a', { href: itemHref(game, shown) }, shown);
  const badge = valued?.liquidityBadge ?? null;
  return el(
    'tr',
    { 'data-asset': item.assetId, class: valued?.isStale ? 'is-stale' : undefined },
    el('td', {}, name),
    el('td', { class: 'num' }, String(item.amount)),
    el('td', { class: 'num' }, item.floatValue === undefined ? '—' : item.floatValue.toFixed(4)),
    el('td', { class: 'num ask', 'data-field': 'ask' }, quote(valued?.bestAsk ?? null)),
    el('td', { class: 'num bid', 'data-field': 'cash' }, quote(valued?.bestCashBid ?? null)),
    el('td', { class: 'num', 'data-field': 'suggested' }, dollars(valued?.suggestedPrice)),
    el('td', {}, badge === null ? '—' : badge.replace(/_/g, ' ').toLowerCase()),
    el('td', { class: 'num' }, hours(valued?.medianTimeToSellHours)),
    el('td', { class: 'muted small', 'data-field': 'notes' }, notes(item, valued)),
  );
}

function totals(data: InventoryData, valuation: Valuation): HTMLElement {
  const best = valuation.bestCashMarket;
  return el(
    'div',
    { class: 'stats', id: 'inventory-totals' },
    stat('List value (best asks)', dollars(valuation.listValueCents), {
      'data-field': 'list-value',
    }),
    stat('Instant cash (after fees)', dollars(valuation.instantCashCents), {
      'data-field': 'instant-cash',
    }),
    stat('Steam wallet credit', dollars(valuation.walletValueCents), {
      'data-field': 'wallet-value',
    }),
    stat(
      'Best market to cash out',
      best ? `${best.market} ${dollars(best.cashCents)} (${best.itemsCovered} items)` : '—',
      { 'data-field': 'best-cash-market' },
    ),
    stat('Items', String(data.itemCount ?? 0), { 'data-field': 'item-count' }),
    stat('Unpriced', String(valuation.unpricedCount), { 'data-field': 'unpriced' }),
    stat('Stale', String(valuation.staleCount), { 'data-field': 'stale' }),
    stat('Not marketable', String(valuation.notMarketableCount), {
      'data-field': 'not-marketable',
    }),
    stat('Not in catalog', String(data.unresolvedCount ?? 0), { 'data-field': 'unresolved' }),
  );
}

const HEADERS = [
  'Item',
  'Units',
  'Float',
  'Best ask',
  'Cash bid, seller nets',
  'Suggested',
  'Liquidity',
  'Time to sell',
  '',
];

function results(data: InventoryData, valuation: Valuation): HTMLElement[] {
  const game = gameOf(data);
  const byAsset = new Map(valuation.items.map((valued) => [valued.assetId, valued]));
  const rows = (data.items ?? []).map((item) => itemRow(item, byAsset.get(item.assetId), game));
  return [
    totals(data, valuation),
    gridTable({ id: 'inventory-table' }, HEADERS, el('tbody', {}, ...rows)),
  ];
}

function statusText(data: InventoryData): string {
  if (data.status === 'FAILED') return data.error ?? 'The fetch failed.';
  if (data.status !== 'COMPLETED') return `${data.status.toLowerCase()}…`;
  const at = data.valuation ? new Date(data.valuation.calculatedAt).toUTCString() : '';
  return `${data.itemCount ?? 0} items of ${data.targetSteamId} · priced ${at}`;
}

export function mountInventory(view: HTMLElement, snapshotId: string | null): () => void {
  const status = el('p', { class: 'status-line', id: 'inventory-status' });
  const body = el('div', { id: 'inventory-results' });
  const form = steamIdForm(status);
  replaceChildren(
    view,
    el(
      'section',
      { class: 'card wide' },
      el('h1', {}, 'What is this inventory worth?'),
      el(
        'p',
        { class: 'muted' },
        'A public Steam inventory valued across every market: the lowest ask, what a seller nets ' +
          'selling into cash buy orders after fees, the suggested price and the time to sell.',
      ),
      form.form,
      status,
      body,
    ),
  );
  if (snapshotId === null) return () => {};
  let poller: Poller | null = null;
  const follow = (everyMs: number, firstDelayMs: number) => {
    poller?.stop();
    poller = poll(everyMs, tick, onError, firstDelayMs);
  };
  const tick = async () => {
    const data = await api.inventory(snapshotId);
    if (!status.hasAttribute('data-status')) form.fill(data.targetSteamId, gameOf(data));
    status.textContent = statusText(data);
    status.className = `status-line ${data.status === 'FAILED' ? 'error' : 'live'}`;
    status.setAttribute('data-status', data.status);
    if (data.status === 'FAILED') poller?.stop();
    if (data.status !== 'COMPLETED' || !data.valuation) return;
    replaceChildren(body, ...results(data, data.valuation));
    if (!body.hasAttribute('data-shown')) follow(VALUATION_REFRESH_MS, VALUATION_REFRESH_MS);
    body.setAttribute('data-shown', data.valuation.calculatedAt);
  };
  const onError = (error: unknown) => {
    status.textContent = errorText(error);
    status.className = 'status-line error';
  };
  follow(FETCH_POLL_MS, 0);
  return () => poller?.stop();
}
