/**
 * `pricing alerts create|list|delete --account NAME`: the alert routes' work for operators, on
 * the stores the configuration names. A running server takes new or deleted alerts within 10 s.
 * `create` prints the alert id and its signing secret (shown once).
 */
import { AlertService } from '../access/alerts/alert-service.ts';
import type { AlertStore } from '../access/alerts/alert-store.ts';
import type { Account } from '../access/access-store.ts';
import { createAccessStore, createAlertStore } from '../boot/stores.ts';
import { loadCatalogs } from '../catalog/load-catalogs.ts';
import type { StoreConfig } from '../config.ts';
import { systemClock } from '../domain/clock.ts';
import { MARKETS_BY_GAME } from '../domain/markets.ts';
import { PLAN_ALERT_LIMITS } from '../domain/plans.ts';
import { CONDITION_TYPES, isConditionType } from '../pricing/alert-rules.ts';
import {
  parseCommandArgs,
  requirePositional,
  STORE_OPTIONS,
  storeConfigFrom,
  UsageError,
} from './args.ts';
import { printError, printLine, type CliIo } from './io.ts';

const ACCOUNT = { account: { type: 'string' as const } };

async function withAlerts<T>(
  config: StoreConfig,
  accountName: string | undefined,
  work: (account: Account, service: AlertService, store: AlertStore) => Promise<T>,
  allowPrivate = false,
): Promise<T> {
  if (!accountName) throw new UsageError('--account NAME is required');
  const access = createAccessStore(config, systemClock);
  const store = createAlertStore(config, systemClock);
  try {
    await access.init();
    const account = await access.getAccountByName(accountName);
    if (!account) throw new UsageError(`no account named ${accountName}`);
    await store.init();
    const service = new AlertService({ store, engine: null, clock: systemClock, allowPrivate });
    return await work(account, service, store);
  } finally {
    await access.close();
    await store.close();
  }
}

function integerFlag(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new UsageError(`${name} must be a whole number, got "${value}"`);
  return Number(value);
}

async function create(argv: string[], io: CliIo): Promise<void> {
  const { values } = parseCommandArgs(argv, {
    ...STORE_OPTIONS,
    ...ACCOUNT,
    item: { type: 'string' },
    type: { type: 'string' },
    value: { type: 'string' },
    url: { type: 'string' },
    markets: { type: 'string' },
    cooldown: { type: 'string' },
    'allow-private': { type: 'boolean', default: false },
  });
  if (!values.item || !values.url || values.value === undefined) {
    throw new UsageError('--item NAME, --type TYPE, --value N and --url URL are required');
  }
  if (!isConditionType(values.type)) {
    throw new UsageError(`--type must be one of ${CONDITION_TYPES.join(', ')}`);
  }
  const item = loadCatalogs().cs2.byName(values.item);
  if (!item) throw new UsageError(`--item ${values.item} is not a known CS2 item`);
  const markets = values.markets?.split(',').map((market) => market.trim()) ?? null;
  const unknown = markets?.filter((m) => !(MARKETS_BY_GAME.cs2 as readonly string[]).includes(m));
  if (unknown?.length) throw new UsageError(`--markets has unknown ids: ${unknown.join(', ')}`);
  const cooldownSeconds = integerFlag(values.cooldown, '--cooldown');
  const condition = { type: values.type, value: integerFlag(values.value, '--value')! };
  const alert = await withAlerts(
    storeConfigFrom(values, io.env),
    values.account,
    (account, service) =>
      service.create({
        accountId: account.id,
        limit: PLAN_ALERT_LIMITS[account.plan],
        marketHashName: item.marketHashName,
        canonicalItemId: item.id,
        condition,
        url: values.url!,
        markets: markets ? [...new Set(markets)].sort() : null,
        ...(cooldownSeconds === undefined ? {} : { cooldownSeconds }),
      }),
    values['allow-private'],
  );
  printLine(io, `alert id: ${alert.id}\n${alert.secret}`);
  printError(io, 'the signing secret above is shown once: keep it now');
}

async function list(argv: string[], io: CliIo): Promise<void> {
  const { values } = parseCommandArgs(argv, {
    ...STORE_OPTIONS,
    ...ACCOUNT,
    json: { type: 'boolean' },
  });
  const alerts = await withAlerts(
    storeConfigFrom(values, io.env),
    values.account,
    (account, service) => service.list(account.id),
  );
  const rows = alerts.map((alert) => ({
    id: alert.id,
    item: alert.marketHashName,
    condition: `${alert.condition.type} ${alert.condition.value}`,
    url: alert.url,
    markets: alert.markets?.join(',') ?? 'all',
    cooldownSeconds: alert.cooldownSeconds,
  }));
  if (values.json) {
    printLine(io, JSON.stringify(rows));
    return;
  }
  printLine(io, ['id', 'item', 'condition', 'url', 'markets', 'cooldown'].join('\t'));
  for (const row of rows) printLine(io, Object.values(row).join('\t'));
}

async function remove(argv: string[], io: CliIo): Promise<void> {
  const { values, positionals } = parseCommandArgs(argv, { ...STORE_OPTIONS, ...ACCOUNT }, 1);
  const id = requirePositional(positionals, 0, 'ALERT_ID');
  await withAlerts(storeConfigFrom(values, io.env), values.account, (account, service) =>
    service.delete(account.id, id),
  );
  printLine(io, `deleted ${id}`);
}

const SUBCOMMANDS: Record<string, (argv: string[], io: CliIo) => Promise<void>> = {
  create,
  list,
  delete: remove,
};

export async function alertsCommand(argv: string[], io: CliIo): Promise<void> {
  const [sub, ...rest] = argv;
  const run = sub ? SUBCOMMANDS[sub] : undefined;
  if (!run) throw new UsageError('expected: alerts create|list|delete');
  await run(rest, io);
}
