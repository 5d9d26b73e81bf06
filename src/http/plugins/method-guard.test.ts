import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { RouteTable } from './method-guard.ts';

describe('RouteTable', () => {
  const table = new RouteTable();
  table.add({ method: 'GET', url: '/v1/pricing/:marketHashName' });
  table.add({ method: ['GET', 'POST'], url: '/v1/liquidity/batch' });
  table.add({ method: 'GET', url: '/docs/static/*' });

  test('matches parameters, encoded segments, trailing and doubled slashes', () => {
    assert.deepEqual(table.allowedMethods('/v1/pricing/AK-47%20%7C%20Redline'), ['GET', 'HEAD']);
    assert.deepEqual(table.allowedMethods('/v1/pricing/a%2Fb/'), ['GET', 'HEAD']);
    assert.deepEqual(table.allowedMethods('//v1//liquidity/batch'), ['GET', 'HEAD', 'POST']);
    assert.deepEqual(table.allowedMethods('/docs/static/a/b.css'), ['GET', 'HEAD']);
  });

  test('unknown paths have no methods', () => {
    assert.deepEqual(table.allowedMethods('/v1/pricing'), []);
    assert.deepEqual(table.allowedMethods('/v1/pricing/a/b'), []);
    assert.deepEqual(table.allowedMethods('/v1/liquidity/batchx'), []);
  });
});
