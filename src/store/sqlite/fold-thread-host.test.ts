import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startFoldThread } from './fold-thread-host.ts';

const standIn = new URL('./test-fold-stand-in.mjs', import.meta.url);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fold-host-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('fold thread host', () => {
  test(
    'a thread that runs out of heap is replaced, with twice the cap, and owed flushes are answered',
    { timeout: 30_000 },
    async () => {
      const errors: string[] = [];
      const thread = await startFoldThread(
        { path: path.join(dir, 'once') },
        (message) => errors.push(message),
        { script: standIn, maxOldGenerationSizeMb: 16 },
      );
      assert.deepEqual(await Promise.all([thread.flush(), thread.flush()]), [42, 42]);
      assert.equal(errors.length, 1);
      assert.match(errors[0]!, /fold thread ended .*restarting it with a 32 MB heap cap/);
      assert.equal(await thread.flush(), 42);
      await thread.stop();
      await assert.rejects(thread.flush(), /the fold thread has exited/);
    },
  );

  test('a thread that ends before it is ready fails the start', { timeout: 30_000 }, async () => {
    await assert.rejects(
      startFoldThread({ path: path.join(dir, 'x.early') }, () => undefined, {
        script: standIn,
        maxOldGenerationSizeMb: 16,
      }),
    );
  });
});
