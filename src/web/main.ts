/**
 * The terminal's entry: the header search, and one view at a time chosen by the URL hash:
 * `#/` home, `#/item/<game>/<name>`, `#/markets/<game>`, `#/arbitrage`, `#/inventory[/<id>]`.
 */
import './styles.css';
import { mountArbitrage } from './arbitrage-view.ts';
import { el, replaceChildren } from './dom.ts';
import { mountInventory } from './inventory-view.ts';
import { mountItem } from './item-view.ts';
import { mountMarkets } from './markets-view.ts';
import { parseRoute } from './route.ts';
import { mountSearch } from './search.ts';

function home(view: HTMLElement): () => void {
  replaceChildren(
    view,
    el(
      'section',
      { class: 'card wide home' },
      el('h1', {}, 'Cross-market prices for CS2 and Rust items'),
      el(
        'p',
        {},
        'Type in the search box (press / to jump there), use the arrow keys and Enter to open an item.',
      ),
      el(
        'p',
        {},
        'Open the ',
        el('a', { href: '#/markets/cs2' }, 'markets board'),
        ' for each marketplace’s health, the ',
        el('a', { href: '#/arbitrage' }, 'arbitrage list'),
        ', or value a Steam inventory on the ',
        el('a', { href: '#/inventory' }, 'inventory page'),
        '.',
      ),
      el(
        'p',
        { class: 'muted' },
        'Free to browse. Programmatic access uses API keys: see ',
        el('a', { href: '/docs' }, 'the API docs'),
        '.',
      ),
    ),
  );
  return () => {};
}

function start(): void {
  const view = document.getElementById('view')!;
  mountSearch(document.querySelector('header.top')!);
  let unmount: () => void = () => {};
  const show = () => {
    unmount();
    const route = parseRoute(location.hash);
    for (const link of document.querySelectorAll('[data-nav]')) {
      link.classList.toggle(
        'active',
        link.getAttribute('data-nav') === (route.view === 'home' ? 'search' : route.view),
      );
    }
    if (route.view === 'item') unmount = mountItem(view, route.game, route.name);
    else if (route.view === 'markets') unmount = mountMarkets(view, route.game);
    else if (route.view === 'arbitrage') unmount = mountArbitrage(view);
    else if (route.view === 'inventory') unmount = mountInventory(view, route.snapshotId);
    else unmount = home(view);
    document.title = route.view === 'item' ? `${route.name} · Price terminal` : 'Price terminal';
  };
  window.addEventListener('hashchange', show);
  show();
}

start();
