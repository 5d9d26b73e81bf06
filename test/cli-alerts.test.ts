/** `pricing alerts create|list|delete` through the real binary on a SQLite data directory. */
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli, tempDataDir } from './cli-helpers.ts';

const ITEM = 'AK-47 | Redline (Field-Tested)';

describe('pricing alerts', () => {
  const dir = tempDataDir();
  before(() => {
    assert.equal(runCli(['accounts', 'create', 'acme', '--plan', 'pro', '--data', dir]).code, 0);
  });

  test('create shows the id and the secret once; list shows it; delete removes it', () => {
    const created = runCli([
      'alerts',
      'create',
      '--account',
      'acme',
      '--item',
      ITEM,
      '--type',
      'ask_below',
      '--value',
      '1500',
      '--url',
      'https://93.184.216.34/pricing',
      '--markets',
      'csfloat',
      '--data',
      dir,
    ]);
    assert.equal(created.code, 0, created.stderr);
    const [idLine, secret] = created.stdout.trim().split('\n');
    const id = /^alert id: (alt_[0-9a-f]+)$/.exec(idLine!)?.[1];
    assert.ok(id, idLine);
    assert.match(secret!, /^whsec_/);
    const listed = runCli(['alerts', 'list', '--account', 'acme', '--json', '--data', dir]);
    const rows = JSON.parse(listed.stdout) as { id: string; condition: string; markets: string }[];
    assert.deepEqual(
      rows.map((row) => [row.id, row.condition, row.markets]),
      [[id, 'ask_below 1500', 'csfloat']],
    );
    assert.equal(runCli(['alerts', 'delete', id!, '--account', 'acme', '--data', dir]).code, 0);
    const after = runCli(['alerts', 'list', '--account', 'acme', '--json', '--data', dir]);
    assert.deepEqual(JSON.parse(after.stdout), []);
  });

  test('a loopback URL is refused; a bad type is a usage error', () => {
    const base = ['alerts', 'create', '--account', 'acme', '--item', ITEM, '--value', '1500'];
    const loopback = runCli([
      ...base,
      '--type',
      'ask_below',
      '--url',
      'http://127.0.0.1/h',
      '--data',
      dir,
    ]);
    assert.equal(loopback.code, 1);
    assert.match(loopback.stderr, /non-public/);
    const badType = runCli([
      ...base,
      '--type',
      'ask_near',
      '--url',
      'https://x.example/h',
      '--data',
      dir,
    ]);
    assert.equal(badType.code, 2);
    assert.match(badType.stderr, /--type must be one of/);
  });
});
