/**
 * AccessStore on better-sqlite3, in its own database file (`<data>/access.db`) or ':memory:'.
 * WAL + busy_timeout so the server and the CLI can share the file. Every write bumps the
 * `access_meta.version` counter in the same transaction, which is how another process notices.
 * Monthly quota usage (`monthly_usage`) is added to without moving that counter.
 */
import type Database from 'better-sqlite3';
import { openSideStore } from '../store/sqlite/connection.ts';
import type {
  AccessStore,
  Account,
  AccountPatch,
  AccountStatus,
  ApiKeyRecord,
  KeyStatus,
} from './access-store.ts';
import { isPlan } from '../domain/plans.ts';
import { inDeltaOrder, mergeDeltas } from './monthly-usage.ts';
import type { MonthlyUsageDelta } from './monthly-usage.ts';

export interface SqliteAccessStoreOptions {
  /** File path, or ':memory:'. */
  path: string;
}

const MIGRATIONS: readonly string[] = [
  `CREATE TABLE accounts (
     id TEXT PRIMARY KEY,
     name TEXT NOT NULL UNIQUE,
     plan TEXT NOT NULL,
     status TEXT NOT NULL,
     per_minute_override INTEGER,
     monthly_override INTEGER,
     created_at INTEGER NOT NULL
   );
   CREATE TABLE api_keys (
     id TEXT PRIMARY KEY,
     account_id TEXT NOT NULL REFERENCES accounts(id),
     prefix TEXT NOT NULL,
     hash TEXT NOT NULL UNIQUE,
     status TEXT NOT NULL,
     trial INTEGER NOT NULL,
     created_at INTEGER NOT NULL,
     expires_at INTEGER,
     allow_ips TEXT NOT NULL DEFAULT '[]'
   );
   CREATE INDEX api_keys_account ON api_keys(account_id);
   CREATE TABLE access_meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
   INSERT INTO access_meta (key, value) VALUES ('version', 0);`,
  `CREATE TABLE monthly_usage (
     account_id TEXT NOT NULL,
     month INTEGER NOT NULL,
     used INTEGER NOT NULL CHECK (used >= 0),
     PRIMARY KEY (account_id, month)
   ) WITHOUT ROWID;`,
  `ALTER TABLE accounts ADD COLUMN streams_override INTEGER;`,
];

interface AccountRow {
  id: string;
  name: string;
  plan: string;
  status: string;
  per_minute_override: number | null;
  monthly_override: number | null;
  streams_override: number | null;
  created_at: number;
}

interface KeyRow {
  id: string;
  account_id: string;
  prefix: string;
  hash: string;
  status: string;
  trial: number;
  created_at: number;
  expires_at: number | null;
  allow_ips: string;
}

function toAccount(row: AccountRow): Account {
  if (!isPlan(row.plan))
    throw new Error(`access.db: account ${row.id} has unknown plan ${row.plan}`);
  return {
    id: row.id,
    name: row.name,
    plan: row.plan,
    status: row.status as AccountStatus,
    perMinuteOverride: row.per_minute_override,
    monthlyOverride: row.monthly_override,
    ...(row.streams_override !== null ? { streamsOverride: row.streams_override } : {}),
    createdAt: row.created_at,
  };
}

function toKey(row: KeyRow): ApiKeyRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    prefix: row.prefix,
    hash: row.hash,
    status: row.status as KeyStatus,
    trial: row.trial === 1,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    allowIps: JSON.parse(row.allow_ips) as string[],
  };
}

function migrate(db: Database.Database): void {
  db.exec('CREATE TABLE IF NOT EXISTS access_migrations (version INTEGER PRIMARY KEY)');
  const applied = db.prepare<[], { v: number | null }>(
    'SELECT MAX(version) AS v FROM access_migrations',
  );
  const record = db.prepare<[number]>('INSERT INTO access_migrations (version) VALUES (?)');
  const run = db.transaction(() => {
    const current = applied.get()?.v ?? 0;
    MIGRATIONS.slice(current).forEach((sql, index) => {
      db.exec(sql);
      record.run(current + index + 1);
    });
  });
  run.immediate();
}

function prepareStatements(db: Database.Database) {
  return {
    version: db.prepare<[], { value: number }>(
      "SELECT value FROM access_meta WHERE key = 'version'",
    ),
    bump: db.prepare("UPDATE access_meta SET value = value + 1 WHERE key = 'version'"),
    insertAccount: db.prepare<[AccountRow]>(
      `INSERT INTO accounts (id, name, plan, status, per_minute_override, monthly_override,
         streams_override, created_at)
       VALUES (@id, @name, @plan, @status, @per_minute_override, @monthly_override,
         @streams_override, @created_at)`,
    ),
    updateAccount: db.prepare<[AccountRow]>(
      `UPDATE accounts SET plan = @plan, status = @status, per_minute_override = @per_minute_override,
       monthly_override = @monthly_override, streams_override = @streams_override WHERE id = @id`,
    ),
    accountById: db.prepare<[string], AccountRow>('SELECT * FROM accounts WHERE id = ?'),
    accountByName: db.prepare<[string], AccountRow>('SELECT * FROM accounts WHERE name = ?'),
    accounts: db.prepare<[], AccountRow>('SELECT * FROM accounts ORDER BY name'),
    insertKey: db.prepare<[KeyRow]>(
      `INSERT INTO api_keys (id, account_id, prefix, hash, status, trial, created_at, expires_at, allow_ips)
       VALUES (@id, @account_id, @prefix, @hash, @status, @trial, @created_at, @expires_at, @allow_ips)`,
    ),
    revokeKey: db.prepare<[string]>("UPDATE api_keys SET status = 'revoked' WHERE id = ?"),
    keys: db.prepare<[], KeyRow>('SELECT * FROM api_keys ORDER BY created_at, id'),
    keyByHash: db.prepare<[string], KeyRow>('SELECT * FROM api_keys WHERE hash = ?'),
    addUsage: db.prepare<[MonthlyUsageDelta], { used: number }>(
      `INSERT INTO monthly_usage (account_id, month, used) VALUES (@accountId, @month, @count)
       ON CONFLICT (account_id, month) DO UPDATE SET used = used + excluded.used
       RETURNING used`,
    ),
    usage: db.prepare<[string, number], { used: number }>(
      'SELECT used FROM monthly_usage WHERE account_id = ? AND month = ?',
    ),
  };
}

type Statements = ReturnType<typeof prepareStatements>;

function accountToRow(account: Account): AccountRow {
  return {
    id: account.id,
    name: account.name,
    plan: account.plan,
    status: account.status,
    per_minute_override: account.perMinuteOverride,
    monthly_override: account.monthlyOverride,
    streams_override: account.streamsOverride ?? null,
    created_at: account.createdAt,
  };
}

function keyToRow(key: ApiKeyRecord): KeyRow {
  return {
    id: key.id,
    account_id: key.accountId,
    prefix: key.prefix,
    hash: key.hash,
    status: key.status,
    trial: key.trial ? 1 : 0,
    created_at: key.createdAt,
    expires_at: key.expiresAt,
    allow_ips: JSON.stringify(key.allowIps),
  };
}

const withStreams = (streams: number | null | undefined) =>
  streams === null || streams === undefined ? {} : { streamsOverride: streams };

function applyPatch(account: Account, patch: AccountPatch): Account {
  const { streamsOverride, ...rest } = account;
  return {
    ...rest,
    plan: patch.plan ?? account.plan,
    status: patch.status ?? account.status,
    perMinuteOverride:
      patch.perMinuteOverride !== undefined ? patch.perMinuteOverride : account.perMinuteOverride,
    monthlyOverride:
      patch.monthlyOverride !== undefined ? patch.monthlyOverride : account.monthlyOverride,
    ...withStreams(patch.streamsOverride !== undefined ? patch.streamsOverride : streamsOverride),
  };
}

export function createSqliteAccessStore(options: SqliteAccessStoreOptions): AccessStore {
  const db = openSideStore(options.path);
  let statements: Statements | null = null;

  const ready = (): Statements => {
    if (!statements) throw new Error('SqliteAccessStore: call init() first');
    return statements;
  };
  /** Runs a write and the version bump in one IMMEDIATE transaction. */
  const write = <T>(fn: (s: Statements) => T): T => {
    const s = ready();
    return db
      .transaction(() => {
        const result = fn(s);
        s.bump.run();
        return result;
      })
      .immediate();
  };

  return {
    async init() {
      if (statements) return;
      migrate(db);
      statements = prepareStatements(db);
    },
    async createAccount(account) {
      write((s) => s.insertAccount.run(accountToRow(account)));
    },
    async updateAccount(id, patch) {
      write((s) => {
        const row = s.accountById.get(id);
        if (!row) throw new Error(`No account with id ${id}`);
        s.updateAccount.run(accountToRow(applyPatch(toAccount(row), patch)));
      });
    },
    async getAccount(id) {
      const row = ready().accountById.get(id);
      return row ? toAccount(row) : null;
    },
    async getAccountByName(name) {
      const row = ready().accountByName.get(name);
      return row ? toAccount(row) : null;
    },
    async listAccounts() {
      return ready().accounts.all().map(toAccount);
    },
    async createKey(key) {
      write((s) => s.insertKey.run(keyToRow(key)));
    },
    async revokeKey(keyId) {
      const s = ready();
      return db
        .transaction(() => {
          const changed = s.revokeKey.run(keyId).changes > 0;
          if (changed) s.bump.run();
          return changed;
        })
        .immediate();
    },
    async listKeys() {
      return ready().keys.all().map(toKey);
    },
    async findKeyByHash(hash) {
      const row = ready().keyByHash.get(hash);
      return row ? toKey(row) : null;
    },
    async addMonthlyUsage(deltas) {
      const s = ready();
      const merged = mergeDeltas(deltas);
      const totals = db
        .transaction(() =>
          merged.map((delta) => ({
            accountId: delta.accountId,
            month: delta.month,
            used: s.addUsage.get(delta)!.used,
          })),
        )
        .immediate();
      return inDeltaOrder(deltas, totals);
    },
    async monthlyUsage(accountId, month) {
      return ready().usage.get(accountId, month)?.used ?? 0;
    },
    async version() {
      return ready().version.get()?.value ?? 0;
    },
    async close() {
      statements = null;
      if (db.open) db.close();
    },
  };
}
