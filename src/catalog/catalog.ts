/**
 * The catalog of one game: every priceable item, looked up by exact name or canonical id,
 * and searched by word prefixes. Built once at boot from catalog data; read-only after.
 */
import type { Game } from '../domain/games.ts';
import type { CatalogItem, Rarity } from '../domain/item.ts';

export interface Catalog {
  readonly game: Game;
  readonly items: readonly CatalogItem[];
  readonly rarities: readonly Rarity[];
  byName(marketHashName: string): CatalogItem | undefined;
  byId(id: string): CatalogItem | undefined;
  /** Exact name first, then canonical id. */
  resolve(nameOrId: string): CatalogItem | undefined;
  /** Items whose name words start with every query word (case-insensitive), catalog order. */
  search(query: string): CatalogItem[];
}
