import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import {
  generateAccountId,
  generateApiKey,
  generateKeyId,
  hashApiKey,
  hashesMatch,
  hasKeyShape,
  keyDisplayPrefix,
  randomBase62,
} from './keys.ts';

describe('key material', () => {
  test('keys are sk_live_ plus 32 base62 characters and differ each time', () => {
    const keys = new Set(Array.from({ length: 50 }, generateApiKey));
    assert.equal(keys.size, 50);
    for (const key of keys) assert.match(key, /^sk_live_[0-9A-Za-z]{32}$/);
  });

  test('ids carry their kind and 12 base62 characters', () => {
    assert.match(generateKeyId(), /^key_[0-9A-Za-z]{12}$/);
    assert.match(generateAccountId(), /^acc_[0-9A-Za-z]{12}$/);
  });

  test('base62 output uses the whole alphabet', () => {
    const seen = new Set(randomBase62(5_000));
    assert.equal(seen.size, 62);
  });

  test('the hash is hex SHA-256 of the key and the prefix its first 12 characters', () => {
    const key = 'sk_live_0123456789abcdefghijABCDEFGHIJKL';
    assert.equal(hashApiKey(key), createHash('sha256').update(key).digest('hex'));
    assert.equal(keyDisplayPrefix(key), 'sk_live_0123');
  });

  test('hash comparison', () => {
    const hash = hashApiKey('sk_live_x');
    assert.equal(hashesMatch(hash, hashApiKey('sk_live_x')), true);
    assert.equal(hashesMatch(hash, hashApiKey('sk_live_y')), false);
    assert.equal(hashesMatch(hash, hash.slice(0, 62)), false);
    assert.equal(hashesMatch('', ''), false);
  });

  test('key shape accepts live and test keys only', () => {
    assert.equal(hasKeyShape(generateApiKey()), true);
    assert.equal(hasKeyShape('sk_test_' + 'a'.repeat(32)), true);
    assert.equal(hasKeyShape('sk_live_' + 'a'.repeat(31)), false);
    assert.equal(hasKeyShape('sk_live_' + 'a'.repeat(31) + '!'), false);
    assert.equal(hasKeyShape('pk_live_' + 'a'.repeat(32)), false);
  });
});
