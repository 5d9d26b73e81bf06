/**
 * AccessStore on PostgreSQL, for deployments with several API processes: accounts and keys
 * live in the shared database. Every write bumps the single `access_version` row in the same
 * transaction, so each process's AccessService, polling version(), re-reads its cached keys
 * within one refresh interval of a revoke made anywhere (API process or CLI).
 * Orderings use the "C" collation: byte order, the same as the SQLite store.
 * Monthly quota usage is added to in one statement per flush and never moves the version.
 */
import { systemClock } from '../domain/clock.ts';
import type { Clock } from '../domain/clock.ts';
import { isPlan } from '../domain/plans.ts';
import { createPool, inTransaction } from '../store/postgres/driver.ts';
import type { PoolClient, PostgresConnectionOptions, Queryable } from '../store/postgres/driver.ts';
import { migrate } from '../store/postgres/migrate.ts';
import type { PostgresMigration } from '../store/postgres/migrate.ts';
import type { AccessStore, Account, AccountPatch, ApiKeyRecord } from './access-store.ts';
import { inDeltaOrder, mergeDeltas } from './monthly-usage.ts';
import type { MonthlyUsage } from './monthly-usage.ts';

export interface PostgresAccessStoreOptions extends PostgresConnectionOptions {
  clock?: Clock;
}

const MIGRATIONS: readonly PostgresMigration[] = [
  {
    version: 1,
    name: 'accounts, api keys, version counter',
    sql: `
      CREATE TABLE accounts (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        plan TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('active', 'inactive', 'expired')),
        per_minute_override BIGINT,
        monthly_override BIGINT,
        created_at BIGINT NOT NULL
      );
      CREATE TABLE api_keys (
        id TEXT PRIMARY KEY,
        account_id TEXT NOT NULL REFERENCES accounts (id),
        prefix TEXT NOT NULL,
        hash TEXT NOT NULL UNIQUE,
        status TEXT NOT NULL CHECK (status IN ('active', 'revoked')),
        trial BOOLEAN NOT NULL,
        created_at BIGINT NOT NULL,
        expires_at BIGINT,
        allow_ips TEXT[] NOT NULL DEFAULT '{}'
      );
      CREATE INDEX api_keys_account ON api_keys (account_id);
      CREATE TABLE access_version (
        singleton BOOLEAN PRIMARY KEY DEFAULT TRUE CHECK (singleton),
        value BIGINT NOT NULL
      );
      INSERT INTO access_version (value) VALUES (0);`,
  },
  {
    version: 2,
    name: 'monthly quota usage',
    sql: `
      CREATE TABLE monthly_usage (
        account_id TEXT NOT NULL,
        month INTEGER NOT NULL,
        used BIGINT NOT NULL CHECK (used BETWEEN 0 AND 9007199254740991),
        PRIMARY KEY (account_id, month)
      );`,
  },
  {
    version: 3,
    name: 'open price streams per account',
    sql: `ALTER TABLE accounts ADD COLUMN streams_override BIGINT;`,
  },
];

/** Rows in the merged (sorted) order, so concurrent writers lock them in one order. */
const ADD_USAGE = `
  INSERT INTO monthly_usage (account_id, month, used)
  SELECT a, m, u FROM unnest($1::text[], $2::int[], $3::bigint[]) WITH ORDINALITY AS d (a, m, u, n)
  ORDER BY n
  ON CONFLICT (account_id, month) DO UPDATE SET used = monthly_usage.used + EXCLUDED.used
  RETURNING account_id AS "accountId", month, used`;

const ACCOUNT_COLUMNS = `id, name, plan, status, per_minute_override AS "perMinuteOverride",
  monthly_override AS "monthlyOverride", streams_override AS "streamsOverride",
  created_at AS "createdAt"`;

const KEY_COLUMNS = `id, account_id AS "accountId", prefix, hash, status, trial,
  created_at AS "createdAt", expires_at AS "expiresAt", allow_ips AS "allowIps"`;

type AccountRow = Omit<Account, 'plan'> & { plan: string };

function toAccount(row: AccountRow): Account {
  if (!isPlan(row.plan)) throw new Error(`accounts: ${row.id} has unknown plan ${row.plan}`);
  const { streamsOverride, ...rest } = row;
  return {
    ...rest,
    plan: row.plan,
    ...(streamsOverride != null ? { streamsOverride: Number(streamsOverride) } : {}),
  };
}

async function oneAccount(db: Queryable, where: string, value: string) {
  const result = await db.query<AccountRow>(
    `SELECT ${ACCOUNT_COLUMNS} FROM accounts WHERE ${where} = $1`,
    [value],
  );
  const row = result.rows[0];
  return row ? toAccount(row) : null;
}

async function bumpVersion(client: PoolClient): Promise<void> {
  await client.query('UPDATE access_version SET value = value + 1');
}

/** One SQL UPDATE: an absent patch field keeps its column, an explicit null clears it. */
function patchParams(id: string, patch: AccountPatch): unknown[] {
  return [
    id,
    patch.plan ?? null,
    patch.status ?? null,
    patch.perMinuteOverride !== undefined,
    patch.perMinuteOverride ?? null,
    patch.monthlyOverride !== undefined,
    patch.monthlyOverride ?? null,
    patch.streamsOverride !== undefined,
    patch.streamsOverride ?? null,
  ];
}

const UPDATE_ACCOUNT = `
  UPDATE accounts SET
    plan = coalesce($2, plan),
    status = coalesce($3, status),
    per_minute_override = CASE WHEN $4 THEN $5::bigint ELSE per_minute_override END,
    monthly_override = CASE WHEN $6 THEN $7::bigint ELSE monthly_override END,
    streams_override = CASE WHEN $8 THEN $9::bigint ELSE streams_override END
  WHERE id = $1`;

export function createPostgresAccessStore(options: PostgresAccessStoreOptions): AccessStore {
  const clock = options.clock ?? systemClock;
  const pool = createPool(options);
  let initialised = false;
  let closed = false;

  const ready = (): void => {
    if (!initialised) throw new Error('PostgresAccessStore: call init() first');
  };
  /** Runs a write and the version bump in one transaction; the bump only if `work` says so. */
  const write = <T>(work: (client: PoolClient) => Promise<T>, changed = (_: T) => true) => {
    ready();
    return inTransaction(pool, async (client) => {
      const result = await work(client);
      if (changed(result)) await bumpVersion(client);
      return result;
    });
  };

  return {
    async init() {
      if (initialised) return;
      await migrate(pool, {
        ledger: 'access_migrations',
        migrations: MIGRATIONS,
        ...(options.schema === undefined ? {} : { schema: options.schema }),
        now: () => clock.now(),
      });
      initialised = true;
    },
    async createAccount(account) {
      await write((client) =>
        client.query(
          `INSERT INTO accounts (id, name, plan, status, per_minute_override, monthly_override,
             streams_override, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
          [
            account.id,
            account.name,
            account.plan,
            account.status,
            account.perMinuteOverride,
            account.monthlyOverride,
            account.streamsOverride ?? null,
            account.createdAt,
          ],
        ),
      );
    },
    async updateAccount(id, patch) {
      await write(async (client) => {
        const result = await client.query(UPDATE_ACCOUNT, patchParams(id, patch));
        if (result.rowCount === 0) throw new Error(`No account with id ${id}`);
      });
    },
    async getAccount(id) {
      ready();
      return oneAccount(pool, 'id', id);
    },
    async getAccountByName(name) {
      ready();
      return oneAccount(pool, 'name', name);
    },
    async listAccounts() {
      ready();
      const result = await pool.query<AccountRow>(
        `SELECT ${ACCOUNT_COLUMNS} FROM accounts ORDER BY name COLLATE "C"`,
      );
      return result.rows.map(toAccount);
    },
    async createKey(key) {
      await write((client) =>
        client.query(
          `INSERT INTO api_keys (id, account_id, prefix, hash, status, trial, created_at,
             expires_at, allow_ips) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
          [
            key.id,
            key.accountId,
            key.prefix,
            key.hash,
            key.status,
            key.trial,
            key.createdAt,
            key.expiresAt,
            key.allowIps,
          ],
        ),
      );
    },
    async revokeKey(keyId) {
      return write(
        async (client) => {
          const result = await client.query(
            `UPDATE api_keys SET status = 'revoked' WHERE id = $1`,
            [keyId],
          );
          return (result.rowCount ?? 0) > 0;
        },
        (revoked) => revoked,
      );
    },
    async listKeys() {
      ready();
      const result = await pool.query<ApiKeyRecord>(
        `SELECT ${KEY_COLUMNS} FROM api_keys ORDER BY created_at, id COLLATE "C"`,
      );
      return result.rows;
    },
    async findKeyByHash(hash) {
      ready();
      const result = await pool.query<ApiKeyRecord>(
        `SELECT ${KEY_COLUMNS} FROM api_keys WHERE hash = $1`,
        [hash],
      );
      return result.rows[0] ?? null;
    },
    async addMonthlyUsage(deltas) {
      ready();
      const merged = mergeDeltas(deltas);
      if (merged.length === 0) return [];
      const result = await pool.query<MonthlyUsage>(ADD_USAGE, [
        merged.map((delta) => delta.accountId),
        merged.map((delta) => delta.month),
        merged.map((delta) => delta.count),
      ]);
      return inDeltaOrder(deltas, result.rows);
    },
    async monthlyUsage(accountId, month) {
      ready();
      const result = await pool.query<{ used: number }>(
        'SELECT used FROM monthly_usage WHERE account_id = $1 AND month = $2',
        [accountId, month],
      );
      return result.rows[0]?.used ?? 0;
    },
    async version() {
      ready();
      const result = await pool.query<{ value: number }>('SELECT value FROM access_version');
      return result.rows[0]?.value ?? 0;
    },
    async close() {
      if (closed) return;
      closed = true;
      initialised = false;
      await pool.end();
    },
  };
}
