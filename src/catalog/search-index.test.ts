import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { SearchIndex, nameWords, queryWords } from './search-index.ts';

const NAMES = [
  'AK-47 | Redline (Field-Tested)',
  'StatTrak™ AK-47 | Redline (Minimal Wear)',
  '★ Karambit | Doppler (Factory New)',
  '★ StatTrak™ Karambit | Doppler (Factory New)',
  '★ Sport Gloves | Vice (Field-Tested)',
  'Sticker | Redline Fan',
  "'Blueberries' Buckshot | NSWC SEAL",
  'M4A1-S | Hyper Beast (Field-Tested)',
];

function names(index: SearchIndex, query: string): string[] {
  return index.search(query).map((position) => NAMES[position] as string);
}

describe('SearchIndex', () => {
  const index = new SearchIndex(NAMES);

  test('matches word prefixes, case-insensitively, in catalog order', () => {
    assert.deepEqual(names(index, 'REDL'), [NAMES[0], NAMES[1], NAMES[5]]);
    assert.deepEqual(names(index, 'kara dopp'), [NAMES[2], NAMES[3]]);
  });

  test('every query word must match some word of the name', () => {
    assert.deepEqual(names(index, 'redline field'), [NAMES[0]]);
    assert.deepEqual(names(index, 'redline karambit'), []);
  });

  test('a query word must be a prefix, not a substring', () => {
    assert.deepEqual(names(index, 'edline'), []);
  });

  test('™ and ★ are ignored or matched as words', () => {
    assert.deepEqual(names(index, 'StatTrak™ karambit'), [NAMES[3]]);
    assert.deepEqual(names(index, 'stattrak karambit'), [NAMES[3]]);
    assert.deepEqual(names(index, '★ vice'), [NAMES[4]]);
    assert.deepEqual(names(index, '★'), [NAMES[2], NAMES[3], NAMES[4]]);
    assert.deepEqual(names(index, '™ | vice'), [NAMES[4]]);
  });

  test('hyphenated and quoted words match whole or by part', () => {
    assert.deepEqual(names(index, 'ak-47 minimal'), [NAMES[1]]);
    assert.deepEqual(names(index, '47 field'), [NAMES[0]]);
    assert.deepEqual(names(index, 'm4a1-s'), [NAMES[7]]);
    assert.deepEqual(names(index, 'blueberries'), [NAMES[6]]);
    assert.deepEqual(names(index, '(field-tested) vice'), [NAMES[4]]);
  });

  test('a blank query matches everything', () => {
    assert.equal(index.search('   ').length, NAMES.length);
  });

  test('agrees with a brute-force scan for random prefixes', () => {
    const vocabulary = [...new Set(NAMES.flatMap(nameWords))];
    const prefix = fc
      .tuple(fc.constantFrom(...vocabulary), fc.nat(6))
      .map(([word, cut]) => word.slice(0, Math.max(1, word.length - cut)));
    fc.assert(
      fc.property(fc.array(prefix, { minLength: 1, maxLength: 3 }), (words) => {
        const query = words.join(' ');
        const expected = NAMES.flatMap((name, position) => {
          const own = nameWords(name);
          const all = queryWords(query).every((word) => own.some((w) => w.startsWith(word)));
          return all ? [position] : [];
        });
        assert.deepEqual(index.search(query), expected);
      }),
    );
  });
});

describe('nameWords', () => {
  test('splits on whitespace and punctuation and keeps the star', () => {
    assert.deepEqual(nameWords('★ StatTrak™ M4A1-S | Nitro (Factory New)').sort(), [
      'factory',
      'm4a1',
      'm4a1-s',
      'new',
      'nitro',
      's',
      'stattrak',
      '★',
    ]);
  });
});
