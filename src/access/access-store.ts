/**
 * The AccessStore port: accounts and API keys. Keys are stored only as SHA-256 hashes.
 * `version()` changes whenever anything here changes, including from another process
 * (the CLI), so a server can refresh its cache within a second.
 */
import type { Plan } from '../domain/plans.ts';
import type { MonthlyUsageStore } from './monthly-usage.ts';

export type AccountStatus = 'active' | 'inactive' | 'expired';
export type KeyStatus = 'active' | 'revoked';

export interface Account {
  id: string;
  name: string;
  plan: Plan;
  status: AccountStatus;
  perMinuteOverride: number | null;
  monthlyOverride: number | null;
  /** Open price streams at once, instead of the plan's (absent: the plan's). */
  streamsOverride?: number | null;
  createdAt: number;
}

export interface ApiKeyRecord {
  id: string;
  accountId: string;
  /** First characters of the key, shown in listings (e.g. `sk_live_AbC1`). */
  prefix: string;
  /** Hex SHA-256 of the full key. */
  hash: string;
  status: KeyStatus;
  trial: boolean;
  createdAt: number;
  expiresAt: number | null;
  /** CIDR strings; empty means any address. */
  allowIps: string[];
}

export interface AccountPatch {
  plan?: Plan;
  status?: AccountStatus;
  perMinuteOverride?: number | null;
  monthlyOverride?: number | null;
  streamsOverride?: number | null;
}

/** Also the durable monthly quota usage (monthly-usage.ts), which never moves version(). */
export interface AccessStore extends MonthlyUsageStore {
  init(): Promise<void>;
  createAccount(account: Account): Promise<void>;
  updateAccount(id: string, patch: AccountPatch): Promise<void>;
  getAccount(id: string): Promise<Account | null>;
  getAccountByName(name: string): Promise<Account | null>;
  listAccounts(): Promise<Account[]>;
  createKey(key: ApiKeyRecord): Promise<void>;
  /** Returns false when no such key exists. */
  revokeKey(keyId: string): Promise<boolean>;
  listKeys(): Promise<ApiKeyRecord[]>;
  findKeyByHash(hash: string): Promise<ApiKeyRecord | null>;
  /** Monotonic change marker, also moved by other processes writing the same store. */
  version(): Promise<number>;
  close(): Promise<void>;
}
