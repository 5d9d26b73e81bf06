import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { decodeCursor, encodeCursor, type CursorState } from './cursor.ts';

const secret = randomBytes(32);
const state: CursorState = {
  game: 'cs2',
  since: 1_000,
  upper: 5_000,
  after: { version: 2_000, id: 'cs2_abc' },
};

describe('change cursors', () => {
  test('round-trip for the game they came from', () => {
    assert.deepEqual(decodeCursor(secret, encodeCursor(secret, state), 'cs2'), state);
  });

  test('are bound to their game', () => {
    assert.equal(decodeCursor(secret, encodeCursor(secret, state), 'rust'), 'other_game');
  });

  test('any edited byte, another secret or junk is refused', () => {
    const cursor = encodeCursor(secret, state);
    const [body, tag] = cursor.split('.') as [string, string];
    const forged = Buffer.from(JSON.stringify(['rust', 1000, 5000, 2000, 'cs2_abc'])).toString(
      'base64url',
    );
    assert.equal(decodeCursor(secret, `${forged}.${tag}`, 'rust'), 'tampered');
    const flipped = `${body.slice(0, -1)}${body.endsWith('A') ? 'B' : 'A'}.${tag}`;
    assert.equal(decodeCursor(secret, flipped, 'cs2'), 'tampered');
    assert.equal(decodeCursor(randomBytes(32), cursor, 'cs2'), 'tampered');
    for (const junk of ['', 'abc', 'a.b.c', `${body}.`]) {
      assert.equal(decodeCursor(secret, junk, 'cs2'), 'malformed');
    }
  });
});
