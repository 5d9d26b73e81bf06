/**
 * The item page's liquidity and listings panels: time to sell at the best ask (badge, median and
 * p90 hours, best market to list on, sales a day) and the cheapest individual listings with
 * float, paint seed and stickers.
 */
import type { ItemData } from './api.ts';
import { el, gridTable, stat } from './dom.ts';
import { dollars, hours } from './format.ts';

export function liquidityPanel(data: ItemData): HTMLElement {
  const liquidity = data.liquidity;
  return el(
    'section',
    { class: 'card', id: 'liquidity' },
    el('h2', {}, 'Liquidity'),
    el(
      'div',
      { class: 'stats' },
      stat('Badge', liquidity.liquidityBadge.replace(/_/g, ' ').toLowerCase()),
      stat('Median time to sell', hours(liquidity.medianTimeToSellHours)),
      stat('p90 time to sell', hours(liquidity.p90TimeToSellHours)),
      stat('Best market to list', liquidity.bestMarketToList ?? '—'),
      stat('Sales a day', liquidity.salesPerDay === null ? '—' : liquidity.salesPerDay.toFixed(1)),
      stat('Confidence', liquidity.confidence.toLowerCase()),
    ),
    el('p', { class: 'muted small' }, `At ${dollars(liquidity.referenceAskUsdCents)}.`),
  );
}

function listingRow(row: ItemData['listings']['listings'][number]): HTMLElement {
  return el(
    'tr',
    {},
    el('td', { class: 'market' }, row.market),
    el('td', { class: 'num ask' }, dollars(row.price)),
    el('td', { class: 'num' }, row.floatValue === null ? '—' : row.floatValue.toFixed(6)),
    el('td', { class: 'num' }, row.paintSeed === null ? '—' : String(row.paintSeed)),
    el('td', { class: 'muted small' }, row.stickers.join(', ')),
  );
}

export function listingsPanel(data: ItemData): HTMLElement {
  const rows = data.listings.listings;
  return el(
    'section',
    { class: 'card', id: 'listings' },
    el('h2', {}, `Cheapest listings (${rows.length} of ${data.listings.totalListings})`),
    rows.length === 0
      ? el('p', { class: 'muted' }, 'No individual listings sampled.')
      : gridTable(
          {},
          ['Market', 'Price', 'Float', 'Seed', 'Stickers'],
          el('tbody', {}, ...rows.map(listingRow)),
        ),
  );
}
