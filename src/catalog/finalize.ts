/**
 * Turns builder drafts into catalog items: assigns the canonical id and a unique slug, and
 * refuses duplicate names or id collisions (a build that would reuse an id must fail loudly).
 */
import type { Game } from '../domain/games.ts';
import type { CatalogItem } from '../domain/item.ts';
import { canonicalId } from './canonical-id.ts';
import { slugify } from './slug.ts';

/** What a category builder produces; id, slug and game are added here. */
export type ItemDraft = Omit<CatalogItem, 'id' | 'slug' | 'game'>;

export class CatalogBuildError extends Error {
  override readonly name = 'CatalogBuildError';
}

export function finalizeItems(game: Game, drafts: readonly ItemDraft[]): CatalogItem[] {
  const nameById = new Map<string, string>();
  const slugs = new Set<string>();
  const items: CatalogItem[] = [];
  for (const { marketHashName, ...fields } of drafts) {
    const id = canonicalId(game, marketHashName);
    const previous = nameById.get(id);
    if (previous !== undefined) {
      throw new CatalogBuildError(
        previous === marketHashName
          ? `duplicate ${game} item name: ${marketHashName}`
          : `${game} id collision: ${previous} / ${marketHashName}`,
      );
    }
    nameById.set(id, marketHashName);
    const slug = uniqueSlug(slugify(marketHashName), id, slugs);
    slugs.add(slug);
    items.push({ id, game, marketHashName, slug, ...fields });
  }
  return items;
}

/** On a clash the later item gets a suffix from its own id, so the suffix is stable too. */
function uniqueSlug(base: string, id: string, taken: ReadonlySet<string>): string {
  if (!taken.has(base)) return base;
  const hash = id.slice(id.indexOf('_') + 1);
  for (let length = 6; length <= hash.length; length += 2) {
    const candidate = `${base}-${hash.slice(0, length)}`;
    if (!taken.has(candidate)) return candidate;
  }
  throw new CatalogBuildError(`cannot make a unique slug for ${base}`);
}
