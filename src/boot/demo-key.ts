/**
 * First start: a demo Enterprise account and key, printed once and written to the data dir.
 * The key file is written before the key is stored, so a stored demo key is never unreadable.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { DEMO_ACCOUNT_NAME, type Admin } from '../access/admin.ts';

export async function ensureDemoKey(admin: Admin, demoKeyPath: string): Promise<string | null> {
  const accounts = await admin.listAccounts();
  if (accounts.some((account) => account.name === DEMO_ACCOUNT_NAME)) return null;
  await admin.createAccount(DEMO_ACCOUNT_NAME, 'enterprise');
  const prepared = await admin.prepareKey({ accountName: DEMO_ACCOUNT_NAME });
  writeFileSync(demoKeyPath, `${prepared.key}\n`, { mode: 0o600 });
  try {
    await prepared.commit();
  } catch (error) {
    rmSync(demoKeyPath, { force: true });
    throw error;
  }
  return prepared.key;
}
