/**
 * Bucket ids and keys read back (history requests name buckets by id): `<market>:<canonical
 * item id>:<bucket key>`, the key one of `float:<min>-<max>`, `fade:<min>-<max>`, `tag:<tag>` or
 * `tag:<tag>:float:<min>-<max>` (buckets.ts). Dimensions rebuilt from a key name the tag by its
 * canonical name (the source's own label is only known to the latest read).
 */
import { isMarketId, type MarketId } from '../domain/markets.ts';
import { EMPTY_DIMENSIONS, type Attribute, type BucketDimensions, type Range } from './buckets.ts';
import { phaseTag } from './phase.ts';

export interface ParsedBucketId {
  market: MarketId;
  itemId: string;
  key: string;
}

const BUCKET_ID = /^([a-z0-9-]+):([^:]+):(.+)$/;
const RANGE = /^(\d+(?:\.\d+)?)-(\d+(?:\.\d+)?)$/;

export function parseBucketId(id: string): ParsedBucketId | null {
  const match = BUCKET_ID.exec(id);
  if (!match || !isMarketId(match[1]!)) return null;
  return keyShape(match[3]!) ? { market: match[1], itemId: match[2]!, key: match[3]! } : null;
}

function range(text: string, maxInclusive: (max: number) => boolean): Range | null {
  const match = RANGE.exec(text);
  if (!match) return null;
  const min = Number(match[1]);
  const max = Number(match[2]);
  return min < max ? { min, max, minInclusive: true, maxInclusive: maxInclusive(max) } : null;
}

/** Attribute types and dimensions a key stands for; null for a key no bucket can have. */
export function keyShape(key: string): { types: Attribute[]; dimensions: BucketDimensions } | null {
  const parts = key.split(':');
  const [kind, value] = parts;
  if (parts.length === 2 && kind === 'float') {
    const float = range(value!, () => false);
    return float && float.max <= 1
      ? { types: ['float'], dimensions: { ...EMPTY_DIMENSIONS, float } }
      : null;
  }
  if (parts.length === 2 && kind === 'fade') {
    const fade = range(value!, (max) => max === 100);
    return fade ? { types: ['fade'], dimensions: { ...EMPTY_DIMENSIONS, fade } } : null;
  }
  if (kind !== 'tag' || (parts.length !== 2 && parts.length !== 4)) return null;
  const tag = phaseTag(value!.replace(/-/g, ' '));
  if (!tag || tag.key !== value) return null;
  const tagged = { ...EMPTY_DIMENSIONS, variant: tag.name, sourceTagName: tag.name };
  if (parts.length === 2) return { types: ['tag'], dimensions: tagged };
  const float = parts[2] === 'float' ? range(parts[3]!, () => false) : null;
  return float ? { types: ['tag', 'float'], dimensions: { ...tagged, float } } : null;
}
