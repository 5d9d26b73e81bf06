/**
 * `pricing alerts create|list|delete` on a SQLite data directory: create through the real
 * binary, the rest in-process through the binary's dispatch.
 */
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli, runInProcess, tempDataDir } from './cli-helpers.ts';

const ITEM = 'AK-47 | Redline (Field-Tested)';

describe('pricing alerts', () => {
  const dir = tempDataDir();
  const run = (...args: string[]) => runInProcess([...args, '--data', dir]);
  before(async () => {
    assert.equal((await run('accounts', 'create', 'acme', '--plan', 'pro')).code, 0);
  });

  test('create shows the id and the secret once; list shows it; delete removes it', async () => {
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
    const listed = await run('alerts', 'list', '--account', 'acme', '--json');
    const rows = JSON.parse(listed.stdout) as { id: string; condition: string; markets: string }[];
    assert.deepEqual(
      rows.map((row) => [row.id, row.condition, row.markets]),
      [[id, 'ask_below 1500', 'csfloat']],
    );
    assert.equal((await run('alerts', 'delete', id!, '--account', 'acme')).code, 0);
    const after = await run('alerts', 'list', '--account', 'acme', '--json');
    assert.deepEqual(JSON.parse(after.stdout), []);
  });

  test('a loopback URL is refused; a bad type is a usage error', async () => {
    const base = ['alerts', 'create', '--account', 'acme', '--item', ITEM, '--value', '1500'];
    const loopback = await run(...base, '--type', 'ask_below', '--url', 'http://127.0.0.1/h');
    assert.equal(loopback.code, 1);
    assert.match(loopback.stderr, /non-public/);
    const badType = await run(...base, '--type', 'ask_near', '--url', 'https://x.example/h');
    assert.equal(badType.code, 2);
    assert.match(badType.stderr, /--type must be one of/);
  });
});
