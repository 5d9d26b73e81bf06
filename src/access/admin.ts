/**
 * Admin operations behind the `pricing accounts` / `pricing keys` commands: validated writes
 * to the AccessStore with human error messages (AdminInputError for malformed input, AdminError
 * for what the store's state refuses). A key's plaintext is returned once and never stored:
 * prepareKey hands it out before anything is written, so a caller can show it first and commit
 * only once it was shown.
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
  AdminInputError,
  parseAccountName,
  parseAllowIps,
  parseExpiry,
  parseOverride,
  parsePlan,
  parseStatus,
} from './admin-input.ts';
import type { IntegerInput } from './admin-input.ts';

export { AdminError, AdminInputError } from './admin-input.ts';

export const TRIAL_DURATION_MS = 2 * DAY;
export const DEMO_ACCOUNT_NAME = 'demo';

export interface OverridesInput {
  perMinute?: IntegerInput;
  monthly?: IntegerInput;
  /** Open price streams at once. */
  streams?: IntegerInput;
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

/** A key generated and validated but not stored yet: `commit()` stores its hash. */
export interface PreparedKey extends CreatedKey {
  commit(): Promise<void>;
}

export type RevokeOutcome = 'revoked' | 'already_revoked';

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
  prepareKey(input: CreateKeyInput): Promise<PreparedKey>;
  revokeKey(id: string): Promise<RevokeOutcome>;
  listKeys(): Promise<KeyListRow[]>;
  /** On an empty store: account `demo` (enterprise) with one key, whose plaintext is returned. */
  ensureDemoAccount(): Promise<string | null>;
}

export interface AdminOptions {
  store: AccessStore;
  clock: Clock;
}

/** The store patch of a validated `accounts set`; AdminInputError when it changes nothing. */
export function parseAccountPatch(patch: AccountPatchInput): AccountPatch {
  const result: AccountPatch = {};
  if (patch.plan !== undefined) result.plan = parsePlan(patch.plan);
  if (patch.status !== undefined) result.status = parseStatus(patch.status);
  const perMinute = parseOverride(patch.perMinute, 'Per-minute limit');
  const monthly = parseOverride(patch.monthly, 'Monthly quota');
  if (perMinute !== undefined) result.perMinuteOverride = perMinute;
  if (monthly !== undefined) result.monthlyOverride = monthly;
  const streams = parseOverride(patch.streams, 'Open streams limit');
  if (streams !== undefined) result.streamsOverride = streams;
  if (Object.keys(result).length === 0)
    throw new AdminInputError('Nothing to change: give a plan, status or limit');
  return result;
}

/** The validated expiry and allow-list of a key request (the plan check needs the account). */
export function parseKeyRequest(input: CreateKeyInput, createdAt: number) {
  if (input.trial && input.expiresAt != null) {
    throw new AdminInputError(
      'A trial key always expires 2 days after creation: do not give an expiry',
    );
  }
  const expiresAt = input.trial
    ? createdAt + TRIAL_DURATION_MS
    : input.expiresAt != null
      ? parseExpiry(input.expiresAt, createdAt)
      : null;
  return { expiresAt, allowIps: parseAllowIps(input.allowIps ?? []) };
}

function keyStatusAt(
  status: KeyStatus,
  expiresAt: number | null,
  now: number,
): KeyListRow['status'] {
  if (status === 'revoked') return 'revoked';
  return expiresAt !== null && expiresAt <= now ? 'expired' : 'active';
}

const streamsOverride = (streams: number | null | undefined) =>
  streams === null || streams === undefined ? {} : { streamsOverride: streams };

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
      ...streamsOverride(parseOverride(overrides.streams, 'Open streams limit')),
      createdAt: clock.now(),
    };
    if (await store.getAccountByName(account.name)) {
      throw new AdminError(`Account "${account.name}" already exists`);
    }
    await store.createAccount(account);
    return account;
  };

  const checkAllowListPlan = (input: CreateKeyInput, allowIps: string[], plan: Plan): void => {
    if (allowIps.length > 0 && plan !== 'enterprise') {
      throw new AdminError(
        `IP allow-lists are an Enterprise feature; account "${input.accountName}" is on ${plan}`,
      );
    }
  };

  const prepareKey = async (input: CreateKeyInput): Promise<PreparedKey> => {
    const createdAt = clock.now();
    const { expiresAt, allowIps } = parseKeyRequest(input, createdAt);
    const account = await requireAccount(input.accountName);
    checkAllowListPlan(input, allowIps, account.plan);
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
    const shown = { id: record.id, key, prefix: record.prefix, expiresAt: isoOrNull(expiresAt) };
    return { ...shown, commit: () => store.createKey(record) };
  };

  const createKey = async (input: CreateKeyInput): Promise<CreatedKey> => {
    const { commit, ...created } = await prepareKey(input);
    await commit();
    return created;
  };

  return {
    createAccount,
    async setAccount(name, patch) {
      const account = await requireAccount(name);
      await store.updateAccount(account.id, parseAccountPatch(patch));
      return requireAccount(name);
    },
    listAccounts: () => store.listAccounts(),
    createKey,
    prepareKey,
    async revokeKey(id) {
      const known = (await store.listKeys()).find((key) => key.id === id);
      if (known?.status === 'revoked') return 'already_revoked';
      if (!known || !(await store.revokeKey(id))) throw new AdminError(`No key with id "${id}"`);
      return 'revoked';
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
