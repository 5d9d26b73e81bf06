/**
 * The markets board: per market its health status, the 48 half-hour health bars of the last 24
 * hours (most recent last), freshness, fetch latency and error rate. It reloads when the
 * terminal's stream reports a health change (at most every BOARD_MIN_GAP_MS) and every
 * BOARD_REFRESH_MS for the ages and bars.
 */
import { api, type BoardData, type Game } from './api.ts';
import { el, gridTable, replaceChildren } from './dom.ts';
import { age, milliseconds, percent } from './format.ts';
import { poll } from './poller.ts';
import { listen } from './stream.ts';

export const BOARD_REFRESH_MS = 60_000;
export const BOARD_MIN_GAP_MS = 5_000;

const BAR_CLASS = { 2: 'live', 1: 'degraded', 0: 'down' } as const;

function bars(values: readonly (0 | 1 | 2 | null)[]): HTMLElement {
  return el(
    'div',
    {
      class: 'bars',
      'data-bars': values.length,
      'aria-label': '48 half-hour health bars, newest last',
    },
    ...values.map((value) =>
      el('span', { class: `bar ${value === null ? 'unknown' : BAR_CLASS[value]}` }),
    ),
  );
}

function rows(data: BoardData, now: number): HTMLElement[] {
  const freshness = new Map(data.freshness.markets.map((row) => [row.market, row]));
  const latency = new Map(data.latency.markets.map((row) => [row.market, row]));
  return data.health.map((health) => {
    const fresh = freshness.get(health.id);
    const lat = latency.get(health.id);
    return el(
      'tr',
      { 'data-market': health.id },
      el('td', { class: 'market' }, health.id),
      el('td', {}, el('span', { class: `badge ${health.status}` }, health.status)),
      el('td', {}, bars(health.healthBars)),
      el('td', { class: 'num', title: health.lastEventAt ?? '' }, age(health.lastEventAt, now)),
      el(
        'td',
        {},
        el('span', { class: `badge ${fresh?.status ?? 'stale'}` }, fresh?.status ?? '—'),
      ),
      el('td', { class: 'num' }, milliseconds(lat?.avg_latency_ms)),
      el('td', { class: 'num' }, milliseconds(lat?.p95_latency_ms)),
      el('td', { class: 'num' }, percent(lat?.error_rate)),
      el(
        'td',
        { class: 'muted small' },
        health.note ??
          (health.lastError ? `${health.lastError.kind} ${age(health.lastError.at, now)} ago` : ''),
      ),
    );
  });
}

export function mountMarkets(view: HTMLElement, game: Game): () => void {
  const summary = el('p', { class: 'status-line' }, 'Loading…');
  const body = el('tbody', {});
  const headers = [
    'Market',
    'Health',
    'Last 24 h (30-min bars)',
    'Last fetch',
    'Freshness',
    'Avg latency',
    'p95',
    'Errors',
    'Note',
  ];
  replaceChildren(
    view,
    el(
      'section',
      { class: 'card wide' },
      el(
        'div',
        { class: 'card-head' },
        el('h1', {}, `Markets · ${game.toUpperCase()}`),
        el(
          'a',
          { href: `#/markets/${game === 'cs2' ? 'rust' : 'cs2'}` },
          `show ${game === 'cs2' ? 'Rust' : 'CS2'}`,
        ),
      ),
      summary,
      gridTable({ id: 'markets-table' }, headers, body),
    ),
  );
  const load = async () => {
    const data = await api.markets(game);
    const now = Date.now();
    replaceChildren(body, ...rows(data, now));
    summary.textContent = `${data.health.length} markets · overall freshness ${data.freshness.overall_status} · checked ${age(data.freshness.checked_at, now)} ago`;
    summary.className = 'status-line live';
  };
  const showError = (error: unknown) => {
    summary.textContent = error instanceof Error ? error.message : String(error);
    summary.className = 'status-line error';
  };
  const poller = poll(BOARD_REFRESH_MS, load, showError);
  let pending: ReturnType<typeof setTimeout> | null = null;
  const stream = listen(
    { game, board: 'true' },
    (event) => {
      if (event !== 'health' || pending !== null) return;
      pending = setTimeout(() => {
        pending = null;
        load().catch(showError);
      }, BOARD_MIN_GAP_MS);
    },
    () => {},
  );
  return () => {
    stream.stop();
    if (pending !== null) clearTimeout(pending);
    poller.stop();
  };
}
