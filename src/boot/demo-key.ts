/** First start: a demo Enterprise account and key, printed once and written to the data dir. */
import { writeFileSync } from 'node:fs';
import { DEMO_ACCOUNT_NAME, type Admin } from '../access/admin.ts';

export async function ensureDemoKey(admin: Admin, demoKeyPath: string): Promise<string | null> {
  const accounts = await admin.listAccounts();
  if (accounts.some((account) => account.name === DEMO_ACCOUNT_NAME)) return null;
  await admin.createAccount(DEMO_ACCOUNT_NAME, 'enterprise');
  const { key } = await admin.createKey({ accountName: DEMO_ACCOUNT_NAME });
  writeFileSync(demoKeyPath, `${key}\n`, { mode: 0o600 });
  return key;
}
