/**
 * The admin commands' exit codes and messages: 2 for a command line that is wrong in itself, 1
 * for a well-formed command that could not be carried out, and nothing written to the store by
 * a refused command. The rules run in-process through the binary's dispatch; one usage error and
 * one failure go through the real `pricing` binary, and so do the `serve` refusals.
 */
import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { join } from 'node:path';
import { runCli, runInProcess, tempDataDir } from './cli-helpers.ts';

describe('pricing accounts / keys: exit codes', () => {
  const dir = tempDataDir();
  const run = (...args: string[]) => runInProcess([...args, '--data', dir]);

  before(async () => {
    assert.equal((await run('accounts', 'create', 'acme', '--plan', 'enterprise')).code, 0);
    assert.equal((await run('accounts', 'create', 'small', '--plan', 'pro')).code, 0);
  });

  const usageErrors: [string, string[], RegExp][] = [
    ['an unknown plan', ['accounts', 'create', 'x', '--plan', 'gold'], /Unknown plan "gold"/],
    ['an unknown status', ['accounts', 'set', 'acme', '--status', 'paused'], /Unknown status/],
    ['a non-numeric limit', ['accounts', 'set', 'acme', '--per-minute', 'abc'], /positive/],
    ['a negative limit', ['accounts', 'set', 'acme', '--per-minute', '-5'], /got "-5"/],
    [
      'a negative monthly quota',
      ['accounts', 'create', 'y', '--plan', 'pro', '--monthly', '-1'],
      /got "-1"/,
    ],
    ['nothing to change', ['accounts', 'set', 'acme'], /Nothing to change/],
    [
      'a bad account name',
      ['accounts', 'create', 'bad name', '--plan', 'pro'],
      /Invalid account name/,
    ],
    [
      'an expiry that is not a date',
      ['keys', 'create', '--account', 'acme', '--expires-at', 'tomorrow'],
      /Invalid expiry/,
    ],
    [
      'an expiry in the past',
      ['keys', 'create', '--account', 'acme', '--expires-at', '2001-01-01'],
      /not in the future/,
    ],
    [
      'a trial key with an expiry',
      ['keys', 'create', '--account', 'acme', '--trial', '--expires-at', '2099-01-01'],
      /trial key/,
    ],
    [
      'a bad CIDR',
      ['keys', 'create', '--account', 'acme', '--allow-ip', '10.0.0.0/40'],
      /Invalid IP range/,
    ],
    [
      'an empty allow-list',
      ['keys', 'create', '--account', 'acme', '--allow-ip', ''],
      /--allow-ip/,
    ],
    [
      'an allow-list of commas',
      ['keys', 'create', '--account', 'acme', '--allow-ip', ','],
      /--allow-ip/,
    ],
    [
      'a blank allow-list',
      ['keys', 'create', '--account', 'acme', '--allow-ip', '  '],
      /--allow-ip/,
    ],
    [
      'a trailing comma',
      ['keys', 'create', '--account', 'acme', '--allow-ip', '10.0.0.0/8,'],
      /--allow-ip/,
    ],
    ['a flag without its value', ['keys', 'create', '--account', '--trial'], /--account/],
    ['an unknown option', ['keys', 'list', '--colour'], /--colour/],
  ];

  for (const [what, args, message] of usageErrors) {
    test(`${what} exits 2 with our message`, async () => {
      const result = await run(...args);
      assert.equal(result.code, 2, result.stderr);
      assert.match(result.stderr, message);
      assert.doesNotMatch(result.stderr, /ambiguous|TypeError|at .*\.ts:\d+/);
    });
  }

  test('the real binary: a usage error exits 2 with our message, a failure exits 1', () => {
    const usage = runCli(['accounts', 'create', 'x', '--plan', 'gold', '--data', dir]);
    assert.equal(usage.code, 2, usage.stderr);
    assert.match(usage.stderr, /^pricing accounts: Unknown plan "gold"/);
    const failure = runCli(['keys', 'create', '--account', 'ghost', '--data', dir]);
    assert.equal(failure.code, 1, failure.stderr);
    assert.match(failure.stderr, /^pricing keys: No account named "ghost"/);
  });

  test('an empty --data (an unset shell variable) is refused, never ./data', async () => {
    const result = await runInProcess(['keys', 'list', '--data', '']);
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /--data needs a value/);
  });

  test('a flag given twice is refused unless it may repeat', async () => {
    const twice = await run('accounts', 'create', 'z', '--plan', 'pro', '--plan', 'developer');
    assert.equal(twice.code, 2, twice.stderr);
    assert.match(twice.stderr, /--plan is given more than once/);
  });

  test('no usage error leaves a key or an account behind', async () => {
    const keys = JSON.parse((await run('keys', 'list', '--json')).stdout) as unknown[];
    assert.deepEqual(keys, []);
    const accounts = JSON.parse((await run('accounts', 'list', '--json')).stdout) as {
      name: string;
    }[];
    assert.deepEqual(
      accounts.map((account) => account.name),
      ['acme', 'small'],
    );
  });

  test('a usage error does not create the data dir', async () => {
    const fresh = join(tempDataDir(), 'not-yet');
    const result = await runInProcess([
      'accounts',
      'create',
      'x',
      '--plan',
      'gold',
      '--data',
      fresh,
    ]);
    assert.equal(result.code, 2);
    assert.equal(existsSync(fresh), false);
  });

  const failures: [string, string[], RegExp][] = [
    ['an unknown account', ['keys', 'create', '--account', 'ghost'], /No account named "ghost"/],
    ['a taken account name', ['accounts', 'create', 'acme', '--plan', 'pro'], /already exists/],
    [
      'an allow-list on a Pro account',
      ['keys', 'create', '--account', 'small', '--allow-ip', '10.0.0.0/8'],
      /Enterprise feature/,
    ],
    ['an unknown key id', ['keys', 'revoke', 'key_nope'], /No key with id "key_nope"/],
  ];

  for (const [what, args, message] of failures) {
    test(`${what} exits 1`, async () => {
      const result = await run(...args);
      assert.equal(result.code, 1, result.stderr);
      assert.match(result.stderr, message);
    });
  }
});

describe('pricing serve with a bad fee file', () => {
  test('exits 2 naming the problem, before it creates anything', () => {
    const dir = tempDataDir();
    const fees = join(dir, 'fees.json');
    writeFileSync(fees, JSON.stringify({ markets: { skinport: { sellerFeeBps: 20_000 } } }));
    const result = runCli([
      'serve',
      '--port',
      '0',
      '--source',
      'none',
      '--fees',
      fees,
      '--data',
      dir,
    ]);
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /sellerFeeBps/);
    assert.equal(existsSync(join(dir, 'demo-key.txt')), false);
  });
});

describe('pricing serve on a port that is taken', () => {
  test('fails with exit 1 before creating the demo account', async () => {
    const holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const { port } = holder.address() as net.AddressInfo;
    const dir = tempDataDir();
    try {
      const args = ['serve', '--port', String(port), '--source', 'none', '--data', dir];
      const result = runCli(args);
      assert.equal(result.code, 1, result.stderr);
      assert.equal(existsSync(join(dir, 'demo-key.txt')), false);
      const accounts = await runInProcess(['accounts', 'list', '--json', '--data', dir]);
      assert.deepEqual(JSON.parse(accounts.stdout), []);
      assert.match(result.stderr, new RegExp(`cannot listen on 127\\.0\\.0\\.1:${port}`));
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  });
});
