/**
 * `pricing accounts create|set|list`. Input is validated before the store is opened, so a
 * usage error (exit 2) writes nothing. A plan change keeps every key's IP allow-list in force
 * and says so.
 */
import type { Account } from '../access/access-store.ts';
import { parseAccountPatch, type Admin, type AccountPatchInput } from '../access/admin.ts';
import { parseAccountName, parseOverride, parsePlan } from '../access/admin-input.ts';
import { iso } from '../domain/clock.ts';
import {
  STORE_OPTIONS,
  parseCommandArgs,
  storeConfigFrom,
  requirePositional,
  UsageError,
} from './args.ts';
import { withAdmin } from './admin-session.ts';
import { printLine, type CliIo } from './io.ts';

const LIMIT_OPTIONS = {
  'per-minute': { type: 'string' as const },
  monthly: { type: 'string' as const },
  streams: { type: 'string' as const },
};

function overrideValue(value: string | undefined): string | null | undefined {
  return value === 'none' ? null : value;
}

function describe(account: Account): string {
  const perMinute = account.perMinuteOverride ?? 'plan';
  const monthly = account.monthlyOverride ?? 'plan';
  const streams = account.streamsOverride ?? 'plan';
  return `${account.name}\t${account.plan}\t${account.status}\tper-minute=${perMinute}\tmonthly=${monthly}\tstreams=${streams}`;
}

async function create(argv: string[], io: CliIo): Promise<void> {
  const { values, positionals } = parseCommandArgs(
    argv,
    { ...STORE_OPTIONS, ...LIMIT_OPTIONS, plan: { type: 'string' } },
    1,
  );
  const name = requirePositional(positionals, 0, 'account NAME');
  if (!values.plan) throw new UsageError('--plan developer|pro|enterprise is required');
  parseAccountName(name);
  parsePlan(values.plan);
  parseOverride(values['per-minute'], 'Per-minute limit');
  parseOverride(values.monthly, 'Monthly quota');
  parseOverride(values.streams, 'Open streams limit');
  const account = await withAdmin(storeConfigFrom(values, io.env), (admin) =>
    admin.createAccount(name, values.plan!, {
      perMinute: values['per-minute'],
      monthly: values.monthly,
      streams: values.streams,
    }),
  );
  printLine(io, `created account ${describe(account)}`);
}

async function set(argv: string[], io: CliIo): Promise<void> {
  const { values, positionals } = parseCommandArgs(
    argv,
    { ...STORE_OPTIONS, ...LIMIT_OPTIONS, plan: { type: 'string' }, status: { type: 'string' } },
    1,
  );
  const name = requirePositional(positionals, 0, 'account NAME');
  const patch: AccountPatchInput = {
    plan: values.plan,
    status: values.status,
    perMinute: overrideValue(values['per-minute']),
    monthly: overrideValue(values.monthly),
    streams: overrideValue(values.streams),
  };
  parseAccountPatch(patch);
  const { account, restricted } = await withAdmin(
    storeConfigFrom(values, io.env),
    async (admin) => ({
      account: await admin.setAccount(name, patch),
      restricted: values.plan === undefined ? [] : await restrictedKeys(admin, name),
    }),
  );
  printLine(io, `updated account ${describe(account)}`);
  if (account.plan !== 'enterprise' && restricted.length > 0) {
    printLine(
      io,
      `note: IP allow-lists stay in force on ${account.plan}: ${restricted.join('; ')} ` +
        '(revoke a key to lift its restriction)',
    );
  }
}

/** The account's usable keys with an IP allow-list, as `key_id (ranges)`. */
async function restrictedKeys(admin: Admin, accountName: string): Promise<string[]> {
  return (await admin.listKeys())
    .filter((key) => key.account === accountName && key.status === 'active')
    .filter((key) => key.allowIps.length > 0)
    .map((key) => `${key.id} (${key.allowIps.join(', ')})`);
}

async function list(argv: string[], io: CliIo): Promise<void> {
  const { values } = parseCommandArgs(argv, { ...STORE_OPTIONS, json: { type: 'boolean' } });
  const accounts = await withAdmin(storeConfigFrom(values, io.env), (admin) =>
    admin.listAccounts(),
  );
  if (values.json) {
    printLine(io, JSON.stringify(accounts.map((a) => ({ ...a, createdAt: iso(a.createdAt) }))));
    return;
  }
  for (const account of accounts) printLine(io, describe(account));
}

const SUBCOMMANDS: Record<string, (argv: string[], io: CliIo) => Promise<void>> = {
  create,
  set,
  list,
};

export async function accountsCommand(argv: string[], io: CliIo): Promise<void> {
  const [sub, ...rest] = argv;
  const run = sub ? SUBCOMMANDS[sub] : undefined;
  if (!run) throw new UsageError('expected: accounts create|set|list');
  await run(rest, io);
}
