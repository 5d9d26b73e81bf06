import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { iso } from './clock.ts';

const MAX_MS = 8.64e15;
const IN_RANGE = MAX_MS - 256;

test('iso is toISOString, whatever times came before (the memo never answers another ms)', () => {
  fc.assert(
    fc.property(
      fc.array(
        fc.oneof(
          fc.integer({ min: -IN_RANGE, max: IN_RANGE }),
          fc.double({ min: -1e13, max: 1e13, noNaN: true }),
        ),
        { maxLength: 600 },
      ),
      (times) => {
        for (const ms of [...times, ...times.map((at) => at + 256), ...times]) {
          assert.equal(iso(ms), new Date(ms).toISOString());
        }
      },
    ),
  );
});

test('iso of an invalid time throws as toISOString does', () => {
  assert.throws(() => iso(Number.NaN), RangeError);
  assert.throws(() => iso(MAX_MS + 1), RangeError);
});
