import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { newRequestId, requestIdFor } from './request-id.ts';

const raw = (headers: Record<string, string | string[]>) =>
  ({ headers }) as unknown as IncomingMessage;

describe('request ids', () => {
  test('generated ids are req_ + 16 base62 characters and differ, across random blocks', () => {
    const count = 600;
    const ids = new Set(Array.from({ length: count }, newRequestId));
    assert.equal(ids.size, count);
    for (const id of ids) assert.match(id, /^req_[A-Za-z0-9]{16}$/);
  });

  test('a sane client id (1–64 of [A-Za-z0-9_-]) is kept; others are replaced', () => {
    assert.equal(requestIdFor(raw({ 'x-request-id': 'a'.repeat(64) })), 'a'.repeat(64));
    assert.match(requestIdFor(raw({ 'x-request-id': 'a'.repeat(65) })), /^req_/);
    assert.match(requestIdFor(raw({ 'x-request-id': '<script>' })), /^req_/);
    assert.match(requestIdFor(raw({ 'x-request-id': ['a', 'b'] })), /^req_/);
    assert.match(requestIdFor(raw({})), /^req_/);
  });
});
