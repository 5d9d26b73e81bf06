/**
 * Search as you type in the header: each word a prefix, one game at a time (the select next to
 * the box). Keyboard first: `/` focuses the box, arrows move through the results, Enter opens
 * the selected item, Escape closes the list.
 */
import { api, RateLimited, type Game, type SearchData } from './api.ts';
import { el, itemHref, replaceChildren } from './dom.ts';
import { bps, dollars } from './format.ts';

const DEBOUNCE_MS = 120;

type Row = SearchData['results'][number];

function resultRow(row: Row, selected: boolean): HTMLElement {
  return el(
    'a',
    {
      class: `result${selected ? ' selected' : ''}`,
      href: itemHref(row.game, row.name),
      role: 'option',
      'aria-selected': selected ? 'true' : 'false',
      'data-name': row.name,
    },
    el('span', { class: 'name' }, row.name),
    el('span', { class: 'num ask', title: 'best ask' }, dollars(row.bestAsk?.price)),
    el('span', { class: 'num bid', title: 'best bid' }, dollars(row.bestBid?.price)),
    el('span', { class: 'num', title: 'spread' }, bps(row.spreadBps)),
    el('span', { class: 'num muted', title: 'markets' }, `${row.marketCount} mkts`),
  );
}

export function mountSearch(host: HTMLElement): void {
  const input = el('input', {
    type: 'search',
    id: 'search',
    placeholder: 'Search items  ( / )',
    autocomplete: 'off',
    spellcheck: 'false',
    'aria-label': 'Search items',
  });
  const game = el(
    'select',
    { id: 'game', 'aria-label': 'Game' },
    el('option', { value: 'cs2' }, 'CS2'),
    el('option', { value: 'rust' }, 'Rust'),
  );
  const list = el('div', { id: 'results', role: 'listbox', hidden: true });
  host.append(el('div', { class: 'search' }, input, game, list));

  let rows: Row[] = [];
  let selected = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let sequence = 0;

  const render = () => {
    list.hidden = rows.length === 0 && input.value.trim() === '';
    if (rows.length === 0) {
      replaceChildren(
        list,
        el('div', { class: 'empty' }, input.value.trim() ? 'No quoted items match' : ''),
      );
      return;
    }
    replaceChildren(list, ...rows.map((row, index) => resultRow(row, index === selected)));
  };

  const run = async () => {
    const text = input.value.trim();
    const mine = ++sequence;
    if (text === '') {
      rows = [];
      return render();
    }
    try {
      const data = await api.search(game.value as Game, text);
      if (mine !== sequence) return;
      rows = data.results;
      selected = 0;
    } catch (error) {
      if (mine !== sequence) return;
      rows = [];
      replaceChildren(
        list,
        el(
          'div',
          { class: 'empty' },
          error instanceof RateLimited
            ? `Slow down: retry in ${error.retryAfterSeconds}s`
            : 'Search failed',
        ),
      );
      list.hidden = false;
      return;
    }
    render();
  };

  const close = () => {
    list.hidden = true;
    input.blur();
  };

  input.addEventListener('input', () => {
    if (timer !== null) clearTimeout(timer);
    timer = setTimeout(() => void run(), DEBOUNCE_MS);
  });
  game.addEventListener('change', () => void run());
  input.addEventListener('focus', () => render());
  input.addEventListener('keydown', (event) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (rows.length === 0) return;
      selected = (selected + (event.key === 'ArrowDown' ? 1 : rows.length - 1)) % rows.length;
      render();
    } else if (event.key === 'Enter') {
      const row = rows[selected];
      if (!row) return;
      location.hash = itemHref(row.game, row.name);
      close();
    } else if (event.key === 'Escape') {
      close();
    }
  });
  list.addEventListener('click', () => close());
  document.addEventListener('click', (event) => {
    if (!host.contains(event.target as Node)) list.hidden = true;
  });
  document.addEventListener('keydown', (event) => {
    const target = event.target as HTMLElement | null;
    const typing = target && (target.tagName === 'INPUT' || target.tagName === 'SELECT');
    if (event.key === '/' && !typing) {
      event.preventDefault();
      input.focus();
      input.select();
    }
  });
}
