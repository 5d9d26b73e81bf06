/**
 * `pricing keys create|revoke|list`. A new key is written to stdout (its id, then the key, two
 * lines) BEFORE it is stored: if stdout cannot take it (a reader that already went away), no
 * key is created; if storing fails after it was shown, the command says the key does not exist.
 */
import {
  parseKeyRequest,
  type Admin,
  type CreateKeyInput,
  type KeyListRow,
} from '../access/admin.ts';
import { systemClock } from '../domain/clock.ts';
import {
  STORE_OPTIONS,
  parseCommandArgs,
  storeConfigFrom,
  requirePositional,
  UsageError,
} from './args.ts';
import { withAdmin } from './admin-session.ts';
import { printLine, type CliIo } from './io.ts';
import { describeWriteError, writeFully } from './output.ts';

const ALLOW_IP_EXAMPLE = 'e.g. 203.0.113.0/24,2001:db8::/32';

/** Every `--allow-ip` value, split on commas; a blank value or entry is refused, never "any". */
function allowIpsFromFlags(values: readonly string[] | undefined): string[] {
  if (values === undefined) return [];
  return values.flatMap((value) => {
    const entries = value.split(',').map((entry) => entry.trim());
    if (entries.some((entry) => entry === '')) {
      throw new UsageError(
        `--allow-ip needs addresses or CIDR ranges without empty entries (${ALLOW_IP_EXAMPLE}), ` +
          `got "${value}"; leave the flag out for a key usable from any address`,
      );
    }
    return entries;
  });
}

async function showThenStore(admin: Admin, input: CreateKeyInput, io: CliIo): Promise<void> {
  const prepared = await admin.prepareKey(input);
  const shown = `key id: ${prepared.id} (expires ${prepared.expiresAt ?? 'never'})\n${prepared.key}\n`;
  try {
    await writeFully(io.stdout, shown);
  } catch (error) {
    throw new Error(
      `the key could not be written to stdout (${describeWriteError(error)}); no key was created`,
    );
  }
  try {
    await prepared.commit();
  } catch (error) {
    throw new Error(`the key shown above was NOT created: ${(error as Error).message}`);
  }
  io.stderr.write('the key above is shown once (only its hash is stored): keep it now\n');
}

async function create(argv: string[], io: CliIo): Promise<void> {
  const { values } = parseCommandArgs(argv, {
    ...STORE_OPTIONS,
    account: { type: 'string' },
    trial: { type: 'boolean', default: false },
    'expires-at': { type: 'string' },
    'allow-ip': { type: 'string', multiple: true },
  });
  if (!values.account) throw new UsageError('--account NAME is required');
  const input: CreateKeyInput = {
    accountName: values.account,
    trial: values.trial,
    expiresAt: values['expires-at'] ?? null,
    allowIps: allowIpsFromFlags(values['allow-ip']),
  };
  parseKeyRequest(input, systemClock.now());
  await withAdmin(storeConfigFrom(values, io.env), (admin) => showThenStore(admin, input, io));
}

async function revoke(argv: string[], io: CliIo): Promise<void> {
  const { values, positionals } = parseCommandArgs(argv, STORE_OPTIONS, 1);
  const id = requirePositional(positionals, 0, 'KEY_ID');
  const outcome = await withAdmin(storeConfigFrom(values, io.env), (admin) => admin.revokeKey(id));
  printLine(io, outcome === 'revoked' ? `revoked ${id}` : `${id} was already revoked`);
}

const LIST_COLUMNS = [
  'id',
  'account',
  'prefix',
  'status',
  'trial',
  'created',
  'expires',
  'allow-ips',
];

function listCells(row: KeyListRow): string[] {
  return [
    row.id,
    row.account,
    row.prefix,
    row.status,
    row.trial ? 'yes' : 'no',
    row.createdAt,
    row.expiresAt ?? '-',
    row.allowIps.length > 0 ? row.allowIps.join(',') : 'any',
  ];
}

async function list(argv: string[], io: CliIo): Promise<void> {
  const { values } = parseCommandArgs(argv, { ...STORE_OPTIONS, json: { type: 'boolean' } });
  const rows = await withAdmin(storeConfigFrom(values, io.env), (admin) => admin.listKeys());
  if (values.json) {
    printLine(io, JSON.stringify(rows));
    return;
  }
  printLine(io, LIST_COLUMNS.join('\t'));
  for (const row of rows) printLine(io, listCells(row).join('\t'));
}

const SUBCOMMANDS: Record<string, (argv: string[], io: CliIo) => Promise<void>> = {
  create,
  revoke,
  list,
};

export async function keysCommand(argv: string[], io: CliIo): Promise<void> {
  const [sub, ...rest] = argv;
  const run = sub ? SUBCOMMANDS[sub] : undefined;
  if (!run) throw new UsageError('expected: keys create|revoke|list');
  await run(rest, io);
}
