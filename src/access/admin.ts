/**
 * Admin operations behind the `pricing accounts` / `pricing keys` commands: validated writes
 * to the AccessStore with human error messages (AdminError). A key's plaintext is returned once
 * by createKey and never stored.
 */
import type { AccessStore, Account, AccountPatch, KeyStatus } from './access-store.ts';
import type { Clock } from '../domain/clock.ts';
import { DAY, iso, isoOrNull } from '../domain/clock.ts';
import type { Plan } from '../domain/plans.ts';
import {
  generateAccountId,
  generateApiKey,
  generateKeyId,
  hashApiKey,
  keyDisplayPrefix,
} from './keys.ts';
import {
  AdminError,
  parseAccountName,
  parseAllowIps,
  parseExpiry,
  parseOverride,
  parsePlan,
  parseStatus,
} from './admin-input.ts';
import type { IntegerInput } from './admin-input.ts';

export { AdminError } from './admin-input.ts';

export const TRIAL_DURATION_MS = 2 * DAY;
export const DEMO_ACCOUNT_NAME = 'demo';

export interface OverridesInput {
  perMinute?: IntegerInput;
  monthly?: IntegerInput;
}

export interface AccountPatchInput extends OverridesInput {
  plan?: string;
  status?: string;
}

export interface CreateKeyInput {
  accountName: string;
  trial?: boolean;
  /** ISO 8601; not allowed on trial keys (they always last 2 days). */
  expiresAt?: string | null;
  allowIps?: readonly string[];
}

export interface CreatedKey {
  id: string;
  /** The plaintext key: shown once, never stored. */
  key: string;
  prefix: string;
  expiresAt: string | null;
}

export interface KeyListRow {
  id: string;
  account: string;
  prefix: string;
  status: KeyStatus | 'expired';
  trial: boolean;
  createdAt: string;
  expiresAt: string | null;
  allowIps: string[];
}

export interface Admin {
  createAccount(name: string, plan: string, overrides?: OverridesInput): Promise<Account>;
  setAccount(name: string, patch: AccountPatchInput): Promise<Account>;
  listAccounts(): Promise<Account[]>;
  createKey(input: CreateKeyInput): Promise<CreatedKey>;
  revokeKey(id: string): Promise<void>;
  listKeys(): Promise<KeyListRow[]>;
  /** On an empty store: account `demo` (enterprise) with one key, whose plaintext is returned. */
  ensureDemoAccount(): Promise<string | null>;
}

export interface AdminOptions {
  store: AccessStore;
  clock: Clock;
}

function toStorePatch(patch: AccountPatchInput): AccountPatch {
  const result: AccountPatch = {};
  if (patch.plan !== undefined) result.plan = parsePlan(patch.plan);
  if (patch.status !== undefined) result.status = parseStatus(patch.status);
  const perMinute = parseOverride(patch.perMinute, 'Per-minute limit');
  const monthly = parseOverride(patch.monthly, 'Monthly quota');
  if (perMinute !== undefined) result.perMinuteOverride = perMinute;
  if (monthly !== undefined) result.monthlyOverride = monthly;
  if (Object.keys(result).length === 0)
    throw new AdminError('Nothing to change: give a plan, status or limit');
  return result;
}

function keyStatusAt(
  status: KeyStatus,
  expiresAt: number | null,
  now: number,
): KeyListRow['status'] {
  if (status === 'revoked') return 'revoked';
  return expiresAt !== null && expiresAt <= now ? 'expired' : 'active';
}

export function createAdmin({ store, clock }: AdminOptions): Admin {
  const requireAccount = async (name: string): Promise<Account> => {
    const account = await store.getAccountByName(name);
    if (!account) throw new AdminError(`No account named "${name}"`);
    return account;
  };

  const createAccount = async (name: string, plan: string, overrides: OverridesInput = {}) => {
    const account: Account = {
      id: generateAccountId(),
      name: parseAccountName(name),
      plan: parsePlan(plan),
      status: 'active',
      perMinuteOverride: parseOverride(overrides.perMinute, 'Per-minute limit') ?? null,
      monthlyOverride: parseOverride(overrides.monthly, 'Monthly quota') ?? null,
      createdAt: clock.now(),
    };
    if (await store.getAccountByName(account.name)) {
      throw new AdminError(`Account "${account.name}" already exists`);
    }
    await store.createAccount(account);
    return account;
  };

  const expiryFor = (input: CreateKeyInput, createdAt: number): number | null => {
    if (input.trial && input.expiresAt != null) {
      throw new AdminError(
        'A trial key always expires 2 days after creation: do not give an expiry',
      );
    }
    if (input.trial) return createdAt + TRIAL_DURATION_MS;
    return input.expiresAt != null ? parseExpiry(input.expiresAt, createdAt) : null;
  };

  const allowIpsFor = (input: CreateKeyInput, plan: Plan): string[] => {
    const allowIps = parseAllowIps(input.allowIps ?? []);
    if (allowIps.length > 0 && plan !== 'enterprise') {
      throw new AdminError(
        `IP allow-lists are an Enterprise feature; account "${input.accountName}" is on ${plan}`,
      );
    }
    return allowIps;
  };

  const createKey = async (input: CreateKeyInput): Promise<CreatedKey> => {
    const account = await requireAccount(input.accountName);
    const createdAt = clock.now();
    const expiresAt = expiryFor(input, createdAt);
    const allowIps = allowIpsFor(input, account.plan);
    const key = generateApiKey();
    const record = {
      id: generateKeyId(),
      accountId: account.id,
      prefix: keyDisplayPrefix(key),
      hash: hashApiKey(key),
      status: 'active' as const,
      trial: input.trial === true,
      createdAt,
      expiresAt,
      allowIps,
    };
    await store.createKey(record);
    return { id: record.id, key, prefix: record.prefix, expiresAt: isoOrNull(expiresAt) };
  };

  return {
    createAccount,
    async setAccount(name, patch) {
      const account = await requireAccount(name);
      await store.updateAccount(account.id, toStorePatch(patch));
      return requireAccount(name);
    },
    listAccounts: () => store.listAccounts(),
    createKey,
    async revokeKey(id) {
      if (!(await store.revokeKey(id))) throw new AdminError(`No key with id "${id}"`);
    },
    async listKeys() {
      const [keys, accounts] = await Promise.all([store.listKeys(), store.listAccounts()]);
      const names = new Map(accounts.map((account) => [account.id, account.name]));
      const now = clock.now();
      return keys.map((key) => ({
        id: key.id,
        account: names.get(key.accountId) ?? key.accountId,
        prefix: key.prefix,
        status: keyStatusAt(key.status, key.expiresAt, now),
        trial: key.trial,
        createdAt: iso(key.createdAt),
        expiresAt: isoOrNull(key.expiresAt),
        allowIps: key.allowIps,
      }));
    },
    async ensureDemoAccount() {
      if ((await store.listAccounts()).length > 0) return null;
      await createAccount(DEMO_ACCOUNT_NAME, 'enterprise');
      return (await createKey({ accountName: DEMO_ACCOUNT_NAME })).key;
    },
  };
}
