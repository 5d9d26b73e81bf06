import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { auth, buildHarness, KEYS } from '../test-support.ts';

async function quoted() {
  const harness = await buildHarness();
  harness.quote('ask', 'cs2-redline-ft', 'skinport', [1600]);
  harness.quote('ask', 'cs2-vulcan-mw', 'csfloat', [9000]);
  harness.quote('bid', 'cs2-karambit-doppler-fn', 'buff163', [50000]);
  harness.quote('ask', 'rust-alien-red', 'rusttm', [300], undefined, 'rust');
  return harness;
}

const names = (body: { data: { name: string }[] }) => body.data.map((row) => row.name);

describe('200', () => {
  test('without search: every quoted item in catalog order, with pagination', async () => {
    const { app } = await quoted();
    const body = (await app.inject({ url: '/v1/items', headers: auth(KEYS.developer) })).json();
    assert.deepEqual(names(body), [
      'AK-47 | Redline (Field-Tested)',
      '★ Karambit | Doppler (Factory New)',
      'AK-47 | Vulcan (Minimal Wear)',
    ]);
    assert.deepEqual(body.pagination, {
      perPage: 10,
      currentPage: 1,
      from: 1,
      to: 3,
      total: 3,
      lastPage: 1,
      prevPage: null,
      nextPage: null,
    });
    assert.equal(body.data[0].bestAsk.price, 1600);
  });

  test('search: every word a case-insensitive prefix', async () => {
    const { app } = await quoted();
    const body = (
      await app.inject({ url: '/v1/items?search=ak%20RED', headers: auth(KEYS.developer) })
    ).json();
    assert.deepEqual(names(body), ['AK-47 | Redline (Field-Tested)']);
  });

  test('markets restricts to items quoted there; /v2 serves rust', async () => {
    const { app } = await quoted();
    const cs2 = (
      await app.inject({ url: '/v1/items?markets=csfloat,buff163', headers: auth(KEYS.developer) })
    ).json();
    assert.deepEqual(names(cs2), [
      '★ Karambit | Doppler (Factory New)',
      'AK-47 | Vulcan (Minimal Wear)',
    ]);
    const rust = (
      await app.inject({ url: '/v2/items?game=rust', headers: auth(KEYS.developer) })
    ).json();
    assert.deepEqual(names(rust), ['Alien Red']);
  });

  test('paging: perPage 1 walks the list; perPage 100 is accepted; a page beyond the last is empty', async () => {
    const { app } = await quoted();
    const second = (
      await app.inject({ url: '/v1/items?perPage=1&page=2', headers: auth(KEYS.developer) })
    ).json();
    assert.deepEqual(names(second), ['★ Karambit | Doppler (Factory New)']);
    assert.deepEqual(
      [second.pagination.prevPage, second.pagination.nextPage, second.pagination.lastPage],
      [1, 3, 3],
    );
    const hundred = await app.inject({
      url: '/v1/items?perPage=100',
      headers: auth(KEYS.developer),
    });
    assert.equal(hundred.statusCode, 200);
    const beyond = (
      await app.inject({ url: '/v1/items?page=7', headers: auth(KEYS.developer) })
    ).json();
    assert.deepEqual(beyond.data, []);
    assert.deepEqual(
      [beyond.pagination.from, beyond.pagination.to, beyond.pagination.total],
      [null, null, 3],
    );
  });

  test('search of 512 characters is accepted; unknown query parameters are ignored', async () => {
    const { app } = await quoted();
    const response = await app.inject({
      url: `/v1/items?search=${'a'.repeat(512)}&utm_source=x`,
      headers: auth(KEYS.developer),
    });
    assert.equal(response.statusCode, 200);
    assert.deepEqual(response.json().data, []);
  });
});

describe('400', () => {
  test('perPage 101, 0 or not a number; page 0', async () => {
    const { app } = await quoted();
    const cases: [string, string[]][] = [
      ['perPage=101', ['perPage must not exceed 100']],
      ['perPage=0', ['perPage must not be less than 1']],
      ['perPage=ten', ['perPage must be an integer number']],
      ['page=0&perPage=101', ['page must not be less than 1', 'perPage must not exceed 100']],
      ['page=1.5', ['page must be an integer number']],
    ];
    for (const [query, messages] of cases) {
      const response = await app.inject({
        url: `/v1/items?${query}`,
        headers: auth(KEYS.developer),
      });
      assert.equal(response.statusCode, 400, query);
      assert.deepEqual(response.json(), {
        statusCode: 400,
        message: messages,
        error: 'Bad Request',
        code: 'INVALID_PARAMETER',
      });
    }
  });

  test('search of 513 characters is 400 on /v1 and /v2', async () => {
    const { app } = await quoted();
    for (const url of [
      `/v1/items?search=${'a'.repeat(513)}`,
      `/v2/items?game=cs2&search=${'a'.repeat(513)}`,
    ]) {
      const response = await app.inject({ url, headers: auth(KEYS.developer) });
      assert.equal(response.statusCode, 400);
      assert.deepEqual(response.json().message, ['search must not exceed 512 characters']);
    }
  });

  test('repeated scalar parameters are 400, not 500', async () => {
    const { app } = await quoted();
    const response = await app.inject({
      url: '/v1/items?search=a&search=b',
      headers: auth(KEYS.developer),
    });
    assert.equal(response.statusCode, 400);
    assert.deepEqual(response.json().message, ['search must be a string']);
  });

  test('unknown markets are named', async () => {
    const { app } = await quoted();
    const response = await app.inject({
      url: '/v1/items?markets=rusttm',
      headers: auth(KEYS.developer),
    });
    assert.equal(response.statusCode, 400);
    assert.match(
      response.json().message[0],
      /unknown market ids for cs2: rusttm; valid ids: steamcommunity, skinport/,
    );
  });
});

describe('401', () => {
  test('no key, even with an invalid game on /v2', async () => {
    const { app } = await quoted();
    assert.equal((await app.inject({ url: '/v2/items?game=nope&perPage=999' })).statusCode, 401);
  });
});
