/** `pricing keys create|revoke|list`. The plaintext key is printed once, as the last line. */
import {
  STORE_OPTIONS,
  parseCommandArgs,
  storeConfigFrom,
  requirePositional,
  UsageError,
} from './args.ts';
import { withAdmin } from './admin-session.ts';

async function create(argv: string[]): Promise<void> {
  const { values } = parseCommandArgs(argv, {
    ...STORE_OPTIONS,
    account: { type: 'string' },
    trial: { type: 'boolean', default: false },
    'expires-at': { type: 'string' },
    'allow-ip': { type: 'string' },
  });
  if (!values.account) throw new UsageError('--account NAME is required');
  const allowIps = values['allow-ip']
    ?.split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  const created = await withAdmin(storeConfigFrom(values), (admin) =>
    admin.createKey({
      accountName: values.account!,
      trial: values.trial,
      expiresAt: values['expires-at'] ?? null,
      allowIps: allowIps ?? [],
    }),
  );
  console.log(`key id: ${created.id}`);
  console.log(`expires: ${created.expiresAt ?? 'never'}`);
  console.log('the key is shown once; store it now:');
  console.log(created.key);
}

async function revoke(argv: string[]): Promise<void> {
  const { values, positionals } = parseCommandArgs(argv, STORE_OPTIONS, 1);
  const id = requirePositional(positionals, 0, 'KEY_ID');
  await withAdmin(storeConfigFrom(values), (admin) => admin.revokeKey(id));
  console.log(`revoked ${id}`);
}

async function list(argv: string[]): Promise<void> {
  const { values } = parseCommandArgs(argv, { ...STORE_OPTIONS, json: { type: 'boolean' } });
  const rows = await withAdmin(storeConfigFrom(values), (admin) => admin.listKeys());
  if (values.json) {
    console.log(JSON.stringify(rows));
    return;
  }
  console.log(['id', 'account', 'prefix', 'status', 'created', 'expires'].join('\t'));
  for (const row of rows) {
    const cells = [row.id, row.account, row.prefix, row.status, row.createdAt, row.expiresAt];
    console.log(cells.map((cell) => cell ?? '-').join('\t'));
  }
}

const SUBCOMMANDS: Record<string, (argv: string[]) => Promise<void>> = { create, revoke, list };

export async function keysCommand(argv: string[]): Promise<void> {
  const [sub, ...rest] = argv;
  const run = sub ? SUBCOMMANDS[sub] : undefined;
  if (!run) throw new UsageError('expected: keys create|revoke|list');
  await run(rest);
}
