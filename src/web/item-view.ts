/**
 * The item page: the NBBO and the per-market table follow the terminal's price stream (one
 * item, keyless; no polling); facts, execution quotes, suggested price, the depth chart,
 * liquidity, listings and the float / phase buckets (CS2) reload every ITEM_REFRESH_MS, and the
 * history chart (10m / 1h / 1d; sell offers, buy orders, sales volume; per-market overlay) every
 * HISTORY_REFRESH_MS.
 */
import type { TerminalInterval } from '../terminal/schemas.ts';
import { api, RateLimited, type BucketsData, type Game, type ItemData } from './api.ts';
import { bucketsPanel } from './buckets-panel.ts';
import { DepthChart, HistoryChart, type HistorySets } from './charts.ts';
import { el, replaceChildren } from './dom.ts';
import { liquidityPanel, listingsPanel } from './extras-panels.ts';
import { age } from './format.ts';
import { factsPanel, marketTable, nbboPanel, suggestionPanel } from './item-tables.ts';
import { poll } from './poller.ts';
import { listen } from './stream.ts';
import { applyStreamEvent } from './stream-fold.ts';

export const ITEM_REFRESH_MS = 10_000;
export const HISTORY_REFRESH_MS = 60_000;

function errorText(error: unknown): string {
  if (error instanceof RateLimited) return `Rate limited: retrying in ${error.retryAfterSeconds}s`;
  return error instanceof Error ? error.message : String(error);
}

export function mountItem(view: HTMLElement, game: Game, name: string): () => void {
  const status = el('div', { class: 'status-line', id: 'item-status' }, 'Loading…');
  const facts = el('div', { id: 'facts' });
  const nbbo = el('div', { id: 'nbbo-slot' });
  const suggestion = el('div', { id: 'suggestion-slot' });
  const table = el('div', { class: 'table-wrap' });
  const liquidity = el('div', { id: 'liquidity-slot' });
  const listings = el('div', { id: 'listings-slot' });
  const buckets = el('div', { id: 'buckets-slot', class: 'wide' });
  const depthBox = el('div', { class: 'chart', 'data-chart': 'depth' });
  const historyBox = el('div', { class: 'chart tall', 'data-chart': 'history' });
  const intervals = el('div', { class: 'toggles', role: 'group', 'aria-label': 'Interval' });
  const overlay = el('input', { type: 'checkbox', id: 'overlay' });
  let interval: TerminalInterval = '10m';
  for (const choice of ['10m', '1h', '1d'] as const) {
    const button = el(
      'button',
      {
        type: 'button',
        'data-interval': choice,
        'aria-pressed': choice === interval ? 'true' : 'false',
      },
      choice,
    );
    button.addEventListener('click', () => {
      interval = choice;
      for (const other of intervals.querySelectorAll('button'))
        other.setAttribute('aria-pressed', String(other === button));
      void loadHistory();
    });
    intervals.append(button);
  }
  overlay.addEventListener('change', () => void loadHistory());

  replaceChildren(
    view,
    el(
      'div',
      { class: 'item-page' },
      el('div', { class: 'item-head' }, facts, status),
      el('div', { class: 'cards' }, nbbo, suggestion),
      el('section', { class: 'card' }, el('h2', {}, 'Markets'), table),
      el('section', { class: 'card' }, el('h2', {}, 'Depth (merged, cumulative units)'), depthBox),
      el(
        'section',
        { class: 'card wide' },
        el(
          'div',
          { class: 'card-head' },
          el('h2', {}, 'History'),
          intervals,
          el('label', { class: 'check' }, overlay, ' per market'),
        ),
        historyBox,
        el(
          'p',
          { class: 'muted small' },
          'Red: best ask (sell offers). Green: best bid (buy orders). Bars: sales in the trailing window.',
        ),
      ),
      liquidity,
      listings,
      buckets,
    ),
  );

  const depth = new DepthChart(depthBox);
  const history = new HistoryChart(historyBox);
  let last: ItemData | null = null;
  let lastBuckets: BucketsData | null = null;
  /** Set when the page is left: a fetch that answers later draws nothing (its charts are gone). */
  let left = false;

  const render = (data: ItemData, bucketData: BucketsData | null) => {
    lastBuckets = bucketData;
    const now = Date.now();
    if (!last) replaceChildren(facts, factsPanel(data));
    replaceChildren(nbbo, nbboPanel(data));
    replaceChildren(suggestion, suggestionPanel(data));
    replaceChildren(table, marketTable(data, now));
    replaceChildren(liquidity, liquidityPanel(data));
    replaceChildren(listings, listingsPanel(data));
    if (bucketData) replaceChildren(buckets, bucketsPanel(bucketData));
    depth.update(data.depth);
    status.textContent = `Live · updated ${age(data.pricing.calculatedAt, now)} ago · ${data.pricing.freshMarketCount}/${data.pricing.marketCount} markets fresh`;
    status.className = 'status-line live';
    last = data;
  };

  const loadHistory = async () => {
    const [asks, bids, sales, byMarket] = await Promise.all([
      api.history(game, name, interval, 'SELL_OFFER'),
      api.history(game, name, interval, 'BUY_ORDER'),
      api.history(game, name, interval, 'SALE_HISTORY'),
      overlay.checked ? api.historyByMarket(game, name, interval) : Promise.resolve(null),
    ]);
    const sets: HistorySets = { asks, bids, sales, byMarket };
    if (!left) history.update(sets);
  };

  const showError = (error: unknown) => {
    status.textContent = errorText(error);
    status.className = 'status-line error';
  };
  // Float / phase buckets exist for CS2 only; they refresh with the rest of the page.
  const loadItem = async () => {
    const [data, bucketData] = await Promise.all([
      api.item(game, name),
      game === 'cs2' ? api.buckets(name) : Promise.resolve(null),
    ]);
    if (!left) render(data, bucketData);
  };
  const itemPoll = poll(ITEM_REFRESH_MS, loadItem, showError);
  const historyPoll = poll(HISTORY_REFRESH_MS, loadHistory, showError);
  const stream = listen(
    { game, name },
    (event, payload) => {
      if (last && !left) render(applyStreamEvent(last, event, payload), lastBuckets);
    },
    (open) => {
      if (!open) showError(new Error('Stream interrupted: reconnecting'));
    },
  );
  return () => {
    left = true;
    stream.stop();
    itemPoll.stop();
    historyPoll.stop();
    depth.destroy();
    history.destroy();
  };
}
