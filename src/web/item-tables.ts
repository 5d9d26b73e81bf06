/**
 * The item page's panels, each a pure render of one API answer: the per-market table (asks and
 * bids side by side, age and a STALE marker per quote), NBBO with the execution quotes, the
 * suggested price, and the catalog facts.
 */
import type { ItemData } from './api.ts';
import { el, stat } from './dom.ts';
import { age, bps, dollars, feePercent, percent } from './format.ts';

type Ask = ItemData['pricing']['markets'][number];
type Bid = ItemData['pricing']['buyOrders'][number];

function staleMark(isStale: boolean | undefined): HTMLElement | null {
  return isStale
    ? el('span', { class: 'stale', title: 'fetched over 30 minutes ago' }, 'STALE')
    : null;
}

function marketRow(market: string, ask: Ask | undefined, bid: Bid | undefined, now: number) {
  const stale = (ask?.isStale ?? false) || (bid?.isStale ?? false);
  const fetchedAt = [ask?.fetchedAt, bid?.fetchedAt].filter((t): t is string => !!t).sort()[0];
  return el(
    'tr',
    { 'data-market': market, class: stale ? 'is-stale' : undefined },
    el('td', { class: 'market' }, market, ' ', staleMark(stale)),
    el('td', { class: 'num ask', 'data-field': 'ask' }, dollars(ask?.price)),
    el('td', { class: 'num muted' }, ask ? String(ask.quoteSize) : '—'),
    el('td', { class: 'num bid', 'data-field': 'bid' }, dollars(bid?.price)),
    el('td', { class: 'num muted' }, bid ? String(bid.totalQuantity) : '—'),
    el(
      'td',
      { class: 'num muted', 'data-field': 'age', title: fetchedAt ?? '' },
      age(fetchedAt, now),
    ),
  );
}

export function marketTable(data: ItemData, now: number): HTMLElement {
  const asks = new Map(data.pricing.markets.map((quote) => [quote.market, quote]));
  const bids = new Map(data.pricing.buyOrders.map((quote) => [quote.market, quote]));
  const markets = [...new Set([...asks.keys(), ...bids.keys()])];
  return el(
    'table',
    { class: 'grid', id: 'market-table' },
    el(
      'thead',
      {},
      el(
        'tr',
        {},
        ...['Market', 'Ask', 'Listings', 'Bid', 'Bid qty', 'Age'].map((h) => el('th', {}, h)),
      ),
    ),
    el(
      'tbody',
      {},
      ...markets.map((market) => marketRow(market, asks.get(market), bids.get(market), now)),
    ),
  );
}

export function nbboPanel(data: ItemData): HTMLElement {
  const { nbbo } = data;
  const adjusted = nbbo.executionAdjusted;
  const buy = adjusted?.bestAsk ?? null;
  const sell = adjusted?.bestBid ?? null;
  return el(
    'section',
    { class: 'card', id: 'nbbo' },
    el('h2', {}, 'NBBO'),
    el(
      'div',
      { class: 'stats' },
      stat('Best ask', `${dollars(nbbo.bestAsk?.price)} ${nbbo.bestAsk?.market ?? ''}`, {
        'data-field': 'best-ask',
      }),
      stat('Best bid', `${dollars(nbbo.bestBid?.price)} ${nbbo.bestBid?.market ?? ''}`, {
        'data-field': 'best-bid',
      }),
      stat('Spread', bps(nbbo.spreadBps)),
      stat('Confidence', percent(nbbo.confidence)),
    ),
    nbbo.crossed ? el('p', { class: 'warn' }, 'Crossed: a bid is above the best ask') : null,
    nbbo.locked ? el('p', { class: 'warn' }, 'Locked: best bid equals best ask') : null,
    el('h3', {}, 'After fees'),
    el(
      'div',
      { class: 'stats' },
      stat(
        'A buyer pays',
        buy
          ? `${dollars(buy.price)} at ${buy.market} (${dollars(buy.rawPrice)} + ${feePercent(buy.appliedFeeBps)})`
          : '—',
        { 'data-field': 'buyer-pays' },
      ),
      stat(
        'A seller nets',
        sell
          ? `${dollars(sell.price)} at ${sell.market} (${dollars(sell.rawPrice)} − ${feePercent(sell.appliedFeeBps)}${sell.withdrawalFlatUsdCents > 0 ? ` − ${dollars(sell.withdrawalFlatUsdCents)}` : ''})`
          : '—',
        { 'data-field': 'seller-nets' },
      ),
      stat('Net spread', bps(adjusted?.spreadBps)),
    ),
    adjusted
      ? el(
          'p',
          { class: 'muted small' },
          `Fee model ${adjusted.feeModelVersion}. ${adjusted.reasons.join(', ')}`,
        )
      : null,
  );
}

export function suggestionPanel(data: ItemData): HTMLElement {
  const rec = data.recommendation;
  return el(
    'section',
    { class: 'card', id: 'suggestion' },
    el('h2', {}, 'Suggested list price'),
    el(
      'div',
      { class: 'stats' },
      stat('Price', dollars(rec.suggested_price), { 'data-field': 'suggested' }),
      stat('Strategy', rec.strategy),
      stat('Confidence', percent(rec.confidence)),
      stat('Liquidity score', percent(rec.liquidity_score)),
    ),
    rec.unstable_reasons.length > 0
      ? el('p', { class: 'muted small' }, `Unstable: ${rec.unstable_reasons.join(', ')}`)
      : null,
  );
}

export function factsPanel(data: ItemData): HTMLElement {
  const { item } = data;
  const facts: [string, string | undefined][] = [
    ['Game', item.game.toUpperCase()],
    ['Category', item.category],
    ['Weapon', item.weapon],
    ['Finish', item.finish],
    ['Rarity', item.rarity],
    ['Exterior', item.wear],
    ['Phase', item.phase],
    [
      'Float range',
      item.floatRange ? `${item.floatRange.min} – ${item.floatRange.max}` : undefined,
    ],
    ['StatTrak', item.stattrak ? 'yes' : undefined],
    ['Souvenir', item.souvenir ? 'yes' : undefined],
    ['Collections', item.collections?.join(', ')],
  ];
  const image = item.image
    ? el('img', {
        class: 'item-image',
        src: item.image,
        alt: '',
        referrerpolicy: 'no-referrer',
        loading: 'lazy',
      })
    : null;
  image?.addEventListener('error', () => image.remove());
  return el(
    'section',
    { class: 'facts' },
    image,
    el(
      'div',
      {},
      el('h1', { id: 'item-name' }, item.marketHashName),
      el(
        'dl',
        {},
        ...facts
          .filter(([, value]) => value)
          .flatMap(([label, value]) => [el('dt', {}, label), el('dd', {}, value!)]),
      ),
    ),
  );
}
