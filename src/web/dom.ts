/** A tiny element builder (no UI framework): attributes, classes, children; text is escaped. */
export type Child = Node | string | number | null | undefined | false;

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | number | boolean | undefined> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    node.setAttribute(name, value === true ? '' : String(value));
  }
  append(node, children);
  return node;
}

export function append(node: Node, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    node.appendChild(typeof child === 'object' ? child : document.createTextNode(String(child)));
  }
}

export function replaceChildren(node: Element, ...children: Child[]): void {
  node.replaceChildren();
  append(node, children);
}

export function itemHref(game: string, name: string): string {
  return `#/item/${game}/${encodeURIComponent(name)}`;
}

/** A scrollable `table.grid`: an optional caption, one header row, then the given body. */
export function gridTable(
  attrs: Record<string, string | number | boolean | undefined>,
  headers: readonly string[],
  body: Child,
  caption?: string,
): HTMLDivElement {
  const head = el('thead', {}, el('tr', {}, ...headers.map((header) => el('th', {}, header))));
  const table = el(
    'table',
    { ...attrs, class: attrs.class ?? 'grid' },
    caption === undefined ? null : el('caption', {}, caption),
    head,
    body,
  );
  return el('div', { class: 'table-wrap' }, table);
}

/** A labelled figure of a `.stats` block. */
export function stat(
  label: string,
  value: string,
  extra: Record<string, string> = {},
): HTMLDivElement {
  return el(
    'div',
    { class: 'stat', ...extra },
    el('span', { class: 'label' }, label),
    el('span', { class: 'value' }, value),
  );
}
