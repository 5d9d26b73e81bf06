/**
 * API key material: generation, hashing and comparison. Keys look like `sk_live_` + 32 base62
 * characters (about 190 bits from crypto.randomBytes); trial keys use the same `sk_live_` form and
 * differ only in their record (trial flag, 2-day expiry). Only the SHA-256 hex hash is stored,
 * with the first 12 characters kept as a display prefix.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** 248 = 4 × 62: bytes at or above it are dropped so every character is equally likely. */
const UNBIASED_BYTE_LIMIT = 248;

export const KEY_PREFIX = 'sk_live_';
export const KEY_RANDOM_LENGTH = 32;
export const KEY_DISPLAY_PREFIX_LENGTH = 12;
/** Any key this service could have issued; other tokens are refused without a store lookup. */
const KEY_SHAPE = /^sk_(?:live|test)_[0-9A-Za-z]{32}$/;

export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length + 8)) {
      if (byte >= UNBIASED_BYTE_LIMIT) continue;
      out += BASE62.charAt(byte % 62);
      if (out.length === length) break;
    }
  }
  return out;
}

export function generateApiKey(): string {
  return KEY_PREFIX + randomBase62(KEY_RANDOM_LENGTH);
}

export function generateKeyId(): string {
  return 'key_' + randomBase62(12);
}

export function generateAccountId(): string {
  return 'acc_' + randomBase62(12);
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

export function keyDisplayPrefix(key: string): string {
  return key.slice(0, KEY_DISPLAY_PREFIX_LENGTH);
}

export function hasKeyShape(token: string): boolean {
  return KEY_SHAPE.test(token);
}

/** Constant-time comparison of two hex SHA-256 hashes. */
export function hashesMatch(storedHex: string, computedHex: string): boolean {
  const stored = Buffer.from(storedHex, 'hex');
  const computed = Buffer.from(computedHex, 'hex');
  return (
    stored.length === computed.length && stored.length > 0 && timingSafeEqual(stored, computed)
  );
}
