import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DURABILITY_T0, SIDES_PER_BATCH } from './durability-child.ts';
import { createSqlitePriceStore } from './sqlite-price-store.ts';

const childScript = fileURLToPath(new URL('./durability-child.ts', import.meta.url));
const projectRoot = fileURLToPath(new URL('../../..', import.meta.url));
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sqlite-durability-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

const BATCHES_BEFORE_KILL = 15;
const GIVE_UP_MS = 15_000;

/** Starts the writer, SIGKILLs it once it has reported enough commits; resolves to them. */
function runAndKillWriter(file: string): Promise<number[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', childScript, file], {
      cwd: projectRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const reported: number[] = [];
    let pending = '';
    let stderr = '';
    const giveUp = setTimeout(() => child.kill('SIGKILL'), GIVE_UP_MS);
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      const lines = (pending + chunk.toString()).split('\n');
      pending = lines.pop() ?? '';
      reported.push(...lines.map(Number));
      if (reported.length >= BATCHES_BEFORE_KILL) child.kill('SIGKILL');
    });
    child.on('error', reject);
    child.on('exit', (_code, signal) => {
      clearTimeout(giveUp);
      if (signal === 'SIGKILL' && reported.length >= BATCHES_BEFORE_KILL) resolve(reported);
      else reject(new Error(`writer ended early (${signal}): ${stderr}`));
    });
  });
}

test('every batch reported committed survives kill -9 of the writer', async () => {
  const file = path.join(dir, 'prices.db');
  const reported = await runAndKillWriter(file);
  assert.ok(fs.statSync(`${file}-wal`).size > 0, 'the kill left a WAL to recover from');

  const store = createSqlitePriceStore({ path: file });
  await store.init();
  assert.equal(store.db.pragma('integrity_check', { simple: true }), 'ok');
  const perBatch = new Map<number, number>();
  for (const side of await store.loadSides('cs2')) {
    const batchNumber = side.fetchedAt - DURABILITY_T0;
    perBatch.set(batchNumber, (perBatch.get(batchNumber) ?? 0) + 1);
  }
  await store.close();

  for (const batchNumber of reported) {
    assert.equal(perBatch.get(batchNumber), SIDES_PER_BATCH, `batch ${batchNumber} is complete`);
  }
  const stored = [...perBatch.keys()].sort((a, b) => a - b);
  assert.deepEqual(
    stored,
    stored.map((_, index) => index),
    'batches are stored in order without gaps',
  );
  for (const [batchNumber, count] of perBatch) {
    assert.equal(count, SIDES_PER_BATCH, `batch ${batchNumber} is all or nothing`);
  }
});
