/** `pricing accounts create|set|list`. */
import type { Account } from '../access/access-store.ts';
import { iso } from '../domain/clock.ts';
import {
  STORE_OPTIONS,
  parseCommandArgs,
  storeConfigFrom,
  requirePositional,
  UsageError,
} from './args.ts';
import { withAdmin } from './admin-session.ts';

const LIMIT_OPTIONS = {
  'per-minute': { type: 'string' as const },
  monthly: { type: 'string' as const },
};

function overrideValue(value: string | undefined): string | null | undefined {
  return value === 'none' ? null : value;
}

function describe(account: Account): string {
  const perMinute = account.perMinuteOverride ?? 'plan';
  const monthly = account.monthlyOverride ?? 'plan';
  return `${account.name}\t${account.plan}\t${account.status}\tper-minute=${perMinute}\tmonthly=${monthly}`;
}

async function create(argv: string[]): Promise<void> {
  const { values, positionals } = parseCommandArgs(
    argv,
    { ...STORE_OPTIONS, ...LIMIT_OPTIONS, plan: { type: 'string' } },
    1,
  );
  const name = requirePositional(positionals, 0, 'account NAME');
  if (!values.plan) throw new UsageError('--plan developer|pro|enterprise is required');
  const account = await withAdmin(storeConfigFrom(values), (admin) =>
    admin.createAccount(name, values.plan!, {
      perMinute: values['per-minute'],
      monthly: values.monthly,
    }),
  );
  console.log(`created account ${describe(account)}`);
}

async function set(argv: string[]): Promise<void> {
  const { values, positionals } = parseCommandArgs(
    argv,
    { ...STORE_OPTIONS, ...LIMIT_OPTIONS, plan: { type: 'string' }, status: { type: 'string' } },
    1,
  );
  const name = requirePositional(positionals, 0, 'account NAME');
  const account = await withAdmin(storeConfigFrom(values), (admin) =>
    admin.setAccount(name, {
      plan: values.plan,
      status: values.status,
      perMinute: overrideValue(values['per-minute']),
      monthly: overrideValue(values.monthly),
    }),
  );
  console.log(`updated account ${describe(account)}`);
}

async function list(argv: string[]): Promise<void> {
  const { values } = parseCommandArgs(argv, { ...STORE_OPTIONS, json: { type: 'boolean' } });
  const accounts = await withAdmin(storeConfigFrom(values), (admin) => admin.listAccounts());
  if (values.json) {
    console.log(JSON.stringify(accounts.map((a) => ({ ...a, createdAt: iso(a.createdAt) }))));
    return;
  }
  for (const account of accounts) console.log(describe(account));
}

const SUBCOMMANDS: Record<string, (argv: string[]) => Promise<void>> = { create, set, list };

export async function accountsCommand(argv: string[]): Promise<void> {
  const [sub, ...rest] = argv;
  const run = sub ? SUBCOMMANDS[sub] : undefined;
  if (!run) throw new UsageError('expected: accounts create|set|list');
  await run(rest);
}
