import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { paginate } from './pagination.ts';

const rows = Array.from({ length: 25 }, (_, index) => index + 1);

describe('paginate', () => {
  test('first, middle and last pages', () => {
    assert.deepEqual(paginate(rows, 1, 10).pagination, {
      perPage: 10,
      currentPage: 1,
      from: 1,
      to: 10,
      total: 25,
      lastPage: 3,
      prevPage: null,
      nextPage: 2,
    });
    const last = paginate(rows, 3, 10);
    assert.deepEqual(last.rows, [21, 22, 23, 24, 25]);
    assert.deepEqual(
      [last.pagination.from, last.pagination.to, last.pagination.nextPage],
      [21, 25, null],
    );
  });

  test('a page beyond the last is empty and points back to the last page', () => {
    const beyond = paginate(rows, 9, 10);
    assert.deepEqual(beyond.rows, []);
    assert.deepEqual(
      [
        beyond.pagination.from,
        beyond.pagination.to,
        beyond.pagination.prevPage,
        beyond.pagination.nextPage,
      ],
      [null, null, 3, null],
    );
  });

  test('no rows: one empty page', () => {
    assert.deepEqual(paginate([], 1, 10).pagination, {
      perPage: 10,
      currentPage: 1,
      from: null,
      to: null,
      total: 0,
      lastPage: 1,
      prevPage: null,
      nextPage: null,
    });
  });
});
