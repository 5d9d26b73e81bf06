import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { readWhenUnlocked } from './busy-retry.ts';

function rollbackFilePair() {
  const dir = mkdtempSync(join(tmpdir(), 'busy-retry-'));
  const file = join(dir, 'history.db');
  const writer = new Database(file);
  writer.pragma('journal_mode = TRUNCATE');
  writer.exec('CREATE TABLE t (v INTEGER); INSERT INTO t VALUES (1)');
  const reader = new Database(file);
  reader.pragma('busy_timeout = 5000');
  const count = () => reader.prepare('SELECT count(*) FROM t').pluck().get() as number;
  const close = () => {
    writer.close();
    reader.close();
    rmSync(dir, { recursive: true, force: true });
  };
  return { writer, reader, count, close };
}

describe('readWhenUnlocked', () => {
  test('a read held off by a commit waits on a timer, not on the thread, and reads the commit', async () => {
    const { writer, reader, count, close } = rollbackFilePair();
    try {
      writer.exec('BEGIN EXCLUSIVE; INSERT INTO t VALUES (2)');
      const ticks: number[] = [];
      const ticker = setInterval(() => ticks.push(performance.now()), 5);
      const read = readWhenUnlocked(reader, count);
      await new Promise((resolve) => setTimeout(resolve, 200));
      writer.exec('COMMIT');
      assert.equal(await read, 2);
      clearInterval(ticker);
      assert.ok(ticks.length >= 10, `the loop ran ${ticks.length} timers while the lock was held`);
      const gaps = ticks.slice(1).map((at, index) => at - ticks[index]!);
      assert.ok(Math.max(...gaps) < 150, `longest gap ${Math.max(...gaps).toFixed(0)} ms`);
      assert.equal(reader.pragma('busy_timeout', { simple: true }), 5000);
    } finally {
      close();
    }
  });

  test('a read that fails for another reason fails at once', async () => {
    const { reader, close } = rollbackFilePair();
    try {
      const started = performance.now();
      await assert.rejects(
        readWhenUnlocked(reader, () => reader.prepare('SELECT * FROM missing').all()),
        /no such table/,
      );
      assert.ok(performance.now() - started < 100);
      assert.equal(reader.pragma('busy_timeout', { simple: true }), 5000);
    } finally {
      close();
    }
  });
});
