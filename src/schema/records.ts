/**
 * Schema records: the sparse public shape of a catalog item (spec "Item schema"; a field that
 * does not apply is omitted, never null). Built from the catalog the service already loads (CS2
 * from `@ianlucas/cs2-lib`, Rust from src/catalog/rust). `paintIndex` is a string as on the
 * public service (shared/reference/service-conventions.md, schema). `stattrakOf` / `souvenirOf`
 * name the canonical id of the plain item a StatTrak™ / Souvenir entry is a flavour of. The
 * package has no release dates, so containers carry no `releaseDate` yet (omitted, sparse).
 */
import { createHash } from 'node:crypto';
import { canonicalId } from '../catalog/canonical-id.ts';
import type { Game } from '../domain/games.ts';
import type { CatalogItem, DopplerFamily } from '../domain/item.ts';

export interface SchemaVariant {
  marketHashName: string;
  family: DopplerFamily;
  name: string;
  phase?: number;
  image?: string;
}

/** One item as served: every field optional except identity and category. */
export interface SchemaRecord {
  id: string;
  marketHashName: string;
  slug: string;
  category: string;
  baseName?: string;
  weapon?: string;
  finish?: string;
  paintIndex?: string;
  rarity?: string;
  wear?: string;
  wears?: string[];
  stattrak?: boolean;
  souvenir?: boolean;
  hasStattrak?: boolean;
  hasSouvenir?: boolean;
  stattrakOf?: string;
  souvenirOf?: string;
  floatRange?: { min: number; max: number };
  variants?: SchemaVariant[];
  variantOf?: string;
  variant?: string;
  collections?: string[];
  containers?: string[];
  ids?: Record<string, string>;
  image?: string;
  releaseDate?: string;
  /** Learned from the naming authority rather than the item-data package. */
  learned?: boolean;
  learnedFrom?: string;
}

/** A record as served with its own version; `removed` marks a removal in the change feed. */
export type VersionedRecord = SchemaRecord & { version: number; removed?: true };

const PLAIN_FIELDS = [
  'baseName',
  'weapon',
  'finish',
  'rarity',
  'wear',
  'wears',
  'stattrak',
  'souvenir',
  'hasStattrak',
  'hasSouvenir',
  'floatRange',
  'variantOf',
  'collections',
  'containers',
  'image',
] as const;

/** The flavour prefix of a StatTrak™ / Souvenir name removed: the plain item's name. */
export function plainName(item: Pick<CatalogItem, 'marketHashName'>, prefix: string): string {
  return item.marketHashName.replace(prefix, '');
}

export function schemaRecord(item: CatalogItem): SchemaRecord {
  const record: SchemaRecord = {
    id: item.id,
    marketHashName: item.marketHashName,
    slug: item.slug,
    category: item.category,
  };
  const target = record as unknown as Record<string, unknown>;
  for (const field of PLAIN_FIELDS) {
    const value = item[field];
    if (value !== undefined) target[field] = value;
  }
  if (item.paintIndex !== undefined) record.paintIndex = String(item.paintIndex);
  if (item.phase !== undefined) record.variant = item.phase;
  if (item.variants) record.variants = item.variants.map(schemaVariant);
  addFlavourLinks(item, record);
  return record;
}

function schemaVariant(variant: NonNullable<CatalogItem['variants']>[number]): SchemaVariant {
  return {
    marketHashName: variant.marketHashName,
    family: variant.family,
    name: variant.name,
    ...(variant.phase !== undefined ? { phase: variant.phase } : {}),
    ...(variant.image !== undefined ? { image: variant.image } : {}),
  };
}

function addFlavourLinks(item: CatalogItem, record: SchemaRecord): void {
  if (item.game !== 'cs2') return;
  if (item.stattrak) record.stattrakOf = canonicalId('cs2', plainName(item, 'StatTrak™ '));
  if (item.souvenir) record.souvenirOf = canonicalId('cs2', plainName(item, 'Souvenir '));
}

/** A name the naming authority listed and the catalog lacks: identity plus where it came from. */
export function learnedRecord(
  game: Game,
  marketHashName: string,
  slug: string,
  market: string,
): SchemaRecord {
  return {
    id: canonicalId(game, marketHashName),
    marketHashName,
    slug,
    category: 'other',
    learned: true,
    learnedFrom: market,
  };
}

/** Content hash of a record: key order fixed, so equal content always hashes alike. */
export function recordHash(record: SchemaRecord): string {
  return createHash('sha256').update(stableJson(record)).digest('base64url').slice(0, 22);
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, field]) => field !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, field]) => `${JSON.stringify(key)}:${stableJson(field)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
