/**
 * Item selectors for a batch body (issue 14 point 4 applied to POST /v1|v2/liquidity/batch):
 * each entry is resolved like a path or query selector (`findItem`: exact name, canonical id,
 * slug, or the name in any letter case). Entries that match no item are listed once each in
 * `notFound`, in request order; entries naming the same item yield it once. The spec answers an
 * ambiguous selector with 409 ("use the exact name"), so one ambiguous entry makes the whole
 * batch 409, with one sentence per ambiguous entry naming its position and its candidates.
 */
import type { Catalog } from '../catalog/catalog.ts';
import { ApiError } from '../domain/errors.ts';
import type { CatalogItem } from '../domain/item.ts';
import { selectItem } from '../schema/selectors.ts';

export interface ResolvedBatch {
  items: CatalogItem[];
  notFound: string[];
}

type Resolution = { item: CatalogItem } | { candidates: CatalogItem[] } | null;

function resolveEntry(catalog: Catalog, selector: string): Resolution {
  if (selector.length === 0) return null;
  const exact = catalog.resolve(selector);
  return exact ? { item: exact } : selectItem(catalog.items, selector);
}

function ambiguitySentence(field: string, index: number, selector: string, names: string[]) {
  return `${field}[${index}] "${selector}" matches ${names.length} items; use the exact name: ${names.join('; ')}`;
}

export function resolveBatchItems(
  catalog: Catalog,
  selectors: readonly string[],
  field: string,
): ResolvedBatch {
  const items: CatalogItem[] = [];
  const notFound: string[] = [];
  const ambiguous: string[] = [];
  const seen = new Set<string>();
  selectors.forEach((selector, index) => {
    const resolution = resolveEntry(catalog, selector);
    if (!resolution) {
      if (!notFound.includes(selector)) notFound.push(selector);
    } else if ('candidates' in resolution) {
      const names = resolution.candidates.map((item) => item.marketHashName);
      ambiguous.push(ambiguitySentence(field, index, selector, names));
    } else if (!seen.has(resolution.item.id)) {
      seen.add(resolution.item.id);
      items.push(resolution.item);
    }
  });
  if (ambiguous.length > 0) throw new ApiError(409, 'AMBIGUOUS_ITEM', ambiguous);
  return { items, notFound };
}
