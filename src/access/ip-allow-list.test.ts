import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { canonicalIp, ipAllowed, normaliseRange, parseAllowList } from './ip-allow-list.ts';

describe('IP allow-lists', () => {
  test('normalises CIDRs and bare addresses', () => {
    assert.equal(normaliseRange('10.0.0.0/8'), '10.0.0.0/8');
    assert.equal(normaliseRange(' 203.0.113.7 '), '203.0.113.7/32');
    assert.equal(normaliseRange('2001:DB8:0:0::/32'), '2001:db8::/32');
    assert.equal(normaliseRange('::1'), '::1/128');
  });

  test('rejects malformed ranges', () => {
    for (const bad of [
      '',
      '10.0.0.0/33',
      '10.0.0/8',
      '10',
      '0x0a.0.0.1',
      '::/129',
      '1.2.3.4/-1',
      'abc',
      '1.2.3.4/',
    ]) {
      assert.equal(normaliseRange(bad), null, bad);
    }
  });

  test('matches IPv4, IPv6 and IPv4-mapped IPv6 clients', () => {
    const list = parseAllowList(['10.0.0.0/8', '2001:db8::/32', '::ffff:192.0.2.0/120']);
    assert.equal(ipAllowed(list, '10.20.30.40'), true);
    assert.equal(ipAllowed(list, '::ffff:10.20.30.40'), true);
    assert.equal(ipAllowed(list, '11.0.0.1'), false);
    assert.equal(ipAllowed(list, '2001:db8:1::5'), true);
    assert.equal(ipAllowed(list, '2001:db9::5'), false);
    assert.equal(ipAllowed(list, '192.0.2.77'), true);
    assert.equal(ipAllowed(list, 'not-an-ip'), false);
    assert.equal(ipAllowed([], '10.0.0.1'), false);
  });

  test('canonical client text folds IPv4-mapped addresses', () => {
    assert.equal(canonicalIp('::ffff:127.0.0.1'), '127.0.0.1');
    assert.equal(canonicalIp('2001:db8::1'), '2001:db8::1');
    assert.equal(canonicalIp('garbage'), 'garbage');
  });
});
