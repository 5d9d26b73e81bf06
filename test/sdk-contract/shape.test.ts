import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ShapeChecker, type TypeTable } from './shape.ts';

const TABLE: TypeTable = {
  aliases: { Cents: 'number', Badge: "'A'|'B'", Rows: 'Row[]' },
  types: {
    Row: { id: 'string', price: 'Cents|null', 'note?': 'string', at: 'iso', best: 'Best|null' },
    Best: { market: 'string', price: 'Cents' },
    Map: { items: 'Record<Best>', empty: 'Record<never>', badge: 'Badge', version: '1' },
  },
};

const row = (extra: object = {}) => ({
  id: 'x',
  price: 5,
  at: '2026-11-01T00:00:00.000Z',
  best: { market: 'm', price: 3 },
  unnamed: true,
  ...extra,
});

describe('ShapeChecker', () => {
  const checker = new ShapeChecker(TABLE);

  test('a conforming value, extra fields and an absent optional field pass', () => {
    assert.deepEqual(checker.check([row(), row({ price: null, best: null })], 'Rows'), []);
  });

  test('a missing required field, a wrong scalar and a bad date are named by path and owner', () => {
    const { id: _id, ...noId } = row();
    assert.deepEqual(checker.check([noId], 'Rows'), [
      { path: '$[0].id', owner: 'Row.id', expected: 'string', found: 'missing' },
    ]);
    assert.deepEqual(
      checker.check(row({ note: 7, at: 'yesterday-ish' }), 'Row').map((m) => m.owner),
      ['Row.note', 'Row.at'],
    );
  });

  test('a union with an object reports the mismatch inside the object', () => {
    assert.deepEqual(checker.check(row({ best: { market: 'm', price: '3' } }), 'Row'), [
      { path: '$.best.price', owner: 'Best.price', expected: 'number', found: '"3"' },
    ]);
  });

  test('records, never, literals and number literals', () => {
    const map = { items: { a: { market: 'm', price: 1 } }, empty: {}, badge: 'A', version: 1 };
    assert.deepEqual(checker.check(map, 'Map'), []);
    const bad = { items: { a: { market: 'm' } }, empty: { x: 1 }, badge: 'C', version: 2 };
    assert.deepEqual(
      checker.check(bad, 'Map').map((m) => m.path),
      ['$.items["a"].price', '$.empty["x"]', '$.badge', '$.version'],
    );
  });

  test('an allowed difference passes and is reported; other values still fail', () => {
    const seen: string[] = [];
    const lenient = new ShapeChecker(TABLE, {
      allowed: { 'Best.price': 'null' },
      onAllowed: (owner) => seen.push(owner),
    });
    assert.deepEqual(lenient.check({ market: 'm', price: null }, 'Best'), []);
    assert.deepEqual(seen, ['Best.price']);
    assert.equal(lenient.check({ market: 'm', price: 'free' }, 'Best').length, 1);
  });
});
