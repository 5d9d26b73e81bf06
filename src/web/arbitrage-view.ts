/**
 * Arbitrage after fees (cs2): buy at one market's ask, sell into another's cash bid, net of both
 * fees and one withdrawal; a stale leg is flagged, never hidden. Refreshed every 15 s.
 */
import { api } from './api.ts';
import { el, gridTable, itemHref, replaceChildren } from './dom.ts';
import { age, bps, dollars } from './format.ts';
import { poll } from './poller.ts';

export function mountArbitrage(view: HTMLElement): () => void {
  const summary = el('p', { class: 'status-line' }, 'Loading…');
  const body = el('tbody', {});
  const headers = ['Item', 'Buy at', 'Sell at', 'Spread', 'Net after fees', 'Qty', 'Leg ages', ''];
  replaceChildren(
    view,
    el(
      'section',
      { class: 'card wide' },
      el('h1', {}, 'Arbitrage after fees · CS2'),
      summary,
      gridTable({ id: 'arbitrage-table' }, headers, body),
    ),
  );
  const poller = poll(
    15_000,
    async () => {
      const data = await api.arbitrage();
      const now = Date.now();
      replaceChildren(
        body,
        ...data.opportunities.map((row) => {
          const stale = row.buy.isStale || row.sell.isStale;
          return el(
            'tr',
            { class: stale ? 'is-stale' : undefined },
            el(
              'td',
              {},
              el('a', { href: itemHref('cs2', row.marketHashName) }, row.marketHashName),
            ),
            el('td', { class: 'num ask' }, `${dollars(row.buy.price)} ${row.buy.market}`),
            el('td', { class: 'num bid' }, `${dollars(row.sell.price)} ${row.sell.market}`),
            el('td', { class: 'num' }, bps(row.spreadBps)),
            el('td', { class: 'num' }, dollars(row.estimatedNetCents)),
            el('td', { class: 'num' }, String(row.maxTradableQuantity)),
            el(
              'td',
              { class: 'num muted' },
              `${age(row.buy.updatedAt, now)} / ${age(row.sell.updatedAt, now)}`,
            ),
            el('td', {}, stale ? el('span', { class: 'stale' }, 'STALE') : null),
          );
        }),
      );
      summary.textContent = `${data.opportunities.length} opportunities from ${data.totalCandidates} candidates · ${new Date(data.calculatedAt).toUTCString()}`;
      summary.className = 'status-line live';
    },
    (error) => {
      summary.textContent = error instanceof Error ? error.message : String(error);
      summary.className = 'status-line error';
    },
  );
  return () => poller.stop();
}
