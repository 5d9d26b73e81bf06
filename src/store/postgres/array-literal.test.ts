import { test } from 'node:test';
import assert from 'node:assert/strict';
import { arrayLiteral } from './array-literal.ts';

const same = <T>(value: T) => value;

test('text elements are quoted, with quotes and backslashes escaped', () => {
  assert.equal(
    arrayLiteral('text', ['a', 'say "hi"', 'C:\\x', '', 'NULL', null], same),
    String.raw`{"a","say \"hi\"","C:\\x","","NULL",NULL}`,
  );
});

test('numbers print as JS prints them, so a fraction stays visible to PostgreSQL', () => {
  assert.equal(
    arrayLiteral('number', [1, -2, 11.5, null, undefined], same),
    '{1,-2,11.5,NULL,NULL}',
  );
  assert.equal(arrayLiteral('number', ['1,2'], same), '{"1,2"}');
});

test('booleans and bytea', () => {
  assert.equal(arrayLiteral('boolean', [true, false, null], same), '{t,f,NULL}');
  assert.equal(
    arrayLiteral('bytea', [Buffer.from([1, 255]), null], same),
    String.raw`{"\\x01ff",NULL}`,
  );
});
