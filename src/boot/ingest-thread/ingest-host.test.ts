import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isOutOfMemory, startIngestWorker } from './ingest-host.ts';
import type { IngestWorkerConfig } from './messages.ts';

const dir = mkdtempSync(join(tmpdir(), 'ingest-host-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/**
 * A missing replacement (no answer) or a restart loop (no failure) shows as a timeout. Filling
 * 64 MB of heap takes a few CPU seconds, and far longer on a starved machine: the bound only
 * catches a test that never ends.
 */
const TIMEOUT = { timeout: 180_000 };
const ENTRY = new URL('./test-oom-worker.mjs', import.meta.url);

function start(config: { marker: string; beforeReady?: boolean }, errors: string[]) {
  let backfilled = () => {};
  const answered = new Promise<void>((resolve) => (backfilled = resolve));
  const worker = startIngestWorker({
    config: config as unknown as IngestWorkerConfig,
    book: { apply: () => undefined },
    fetchLog: { append: () => undefined },
    onError: (message) => errors.push(message),
    onBackfilled: () => backfilled(),
    entry: ENTRY,
    maxOldGenerationSizeMb: 64,
  });
  return { worker, answered };
}

async function until(check: () => boolean, timeoutMs = 180_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('ingest worker host', () => {
  test('a worker that runs out of heap is replaced and the new one answers', TIMEOUT, async () => {
    const marker = join(dir, 'ran-out');
    const errors: string[] = [];
    const { worker, answered } = start({ marker }, errors);
    const handle = await worker;
    handle.send({ type: 'demand', game: 'cs2', names: [] });
    await until(() => errors.length > 0);
    assert.ok(existsSync(marker), 'the first worker filled its heap');
    assert.match(errors[0]!, /ERR_WORKER_OUT_OF_MEMORY|out of memory/i);
    handle.send({ type: 'backfill', place: { toMs: 0, phase: 'popular', done: 0 } });
    await answered;
    await handle.stop();
    assert.equal(errors.length, 1);
  });

  test(
    'running out of heap before the first start finished is a failure, not a loop',
    TIMEOUT,
    async () => {
      const errors: string[] = [];
      const { worker } = start({ marker: join(dir, 'unused'), beforeReady: true }, errors);
      await assert.rejects(worker, (error: unknown) => isOutOfMemory(error));
      assert.equal(errors.length, 1);
    },
  );
});
