import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { getPriority } from 'node:os';
import { Worker } from 'node:worker_threads';

/** Each thread's nice value (proc(5) stat field 19). */
function niceValues(): number[] {
  return readdirSync('/proc/self/task').map((tid) => {
    const fields = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return Number(fields[16]);
  });
}

const WORKER = `
  const { parentPort } = require('node:worker_threads');
  import('tsx/esm/api')
    .then(({ register }) => register())
    .then(() => import(${JSON.stringify(new URL('./thread-priority.ts', import.meta.url).href)}))
    .then((m) => {
      parentPort.postMessage(m.lowerThreadPriority());
      parentPort.on('message', (message) => {
        if (message === 'restore') return parentPort.postMessage(m.restoreThreadPriority(0));
        process.exit(0);
      });
    });
`;

describe('lowerThreadPriority', { skip: process.platform !== 'linux' }, () => {
  test('lowers the calling thread only, not the process', async () => {
    const before = Math.max(...niceValues());
    const worker = new Worker(WORKER, { eval: true });
    const lowered = await new Promise((resolve) => worker.once('message', resolve));
    assert.equal(lowered, true);
    const nices = niceValues();
    assert.equal(nices.filter((nice) => nice === Math.max(before, 10)).length >= 1, true);
    assert.equal(
      readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ')[16],
      String(before),
    );
    worker.postMessage('done');
    await new Promise((resolve) => worker.once('exit', resolve));
  });

  test('a stopping thread gets its priority back where the process may raise it', async () => {
    const worker = new Worker(WORKER, { eval: true });
    await new Promise((resolve) => worker.once('message', resolve));
    const mayRaise = process.getuid?.() === 0;
    worker.postMessage('restore');
    const restored = await new Promise((resolve) => worker.once('message', resolve));
    assert.equal(restored, mayRaise);
    if (mayRaise) assert.equal(Math.max(...niceValues()), 0);
    worker.postMessage('done');
    await new Promise((resolve) => worker.once('exit', resolve));
  });
});

const NAMING_WORKER = `
  const { parentPort } = require('node:worker_threads');
  import('tsx/esm/api')
    .then(({ register }) => register())
    .then(() => import(${JSON.stringify(new URL('./thread-priority.ts', import.meta.url).href)}))
    .then((m) => {
      const named = m.nameThread('pricing-ingest-thread');
      parentPort.postMessage({ named, self: require('node:fs').readlinkSync('/proc/thread-self') });
      parentPort.once('message', () => process.exit(0));
    });
`;

describe('nameThread', { skip: process.platform !== 'linux' }, () => {
  test('names the calling thread only, cut to the 15 bytes Linux keeps', async () => {
    const worker = new Worker(NAMING_WORKER, { eval: true });
    const { named, self } = await new Promise<{ named: boolean; self: string }>((resolve) =>
      worker.once('message', resolve),
    );
    assert.equal(named, true);
    assert.equal(readFileSync(`/proc/${self}/comm`, 'utf8').trim(), 'pricing-ingest-');
    assert.notEqual(readFileSync('/proc/thread-self/comm', 'utf8').trim(), 'pricing-ingest-');
    worker.postMessage('done');
    await new Promise((resolve) => worker.once('exit', resolve));
  });
});

const BLOCKED_WORKER = `
  const { parentPort, workerData } = require('node:worker_threads');
  import('tsx/esm/api')
    .then(({ register }) => register())
    .then(() => import(${JSON.stringify(new URL('./thread-priority.ts', import.meta.url).href)}))
    .then((m) => {
      m.lowerThreadPriority();
      m.nameThread('lowered-thread');
      parentPort.postMessage(require('node:fs').readlinkSync('/proc/thread-self'));
      Atomics.wait(new Int32Array(workerData), 0, 0);
    });
`;

describe('raiseThreadsNamed', { skip: process.platform !== 'linux' }, () => {
  test('gives a lowered thread the caller priority while that thread is busy', async () => {
    const { raiseThreadsNamed } = await import('./thread-priority.ts');
    const gate = new SharedArrayBuffer(4);
    const worker = new Worker(BLOCKED_WORKER, { eval: true, workerData: gate });
    const self = await new Promise<string>((resolve) => worker.once('message', resolve));
    const niceOf = () => readFileSync(`/proc/${self}/stat`, 'utf8').split(') ')[1]!.split(' ')[16];
    const own = getPriority();
    assert.equal(niceOf(), String(Math.max(own, 10)));
    const mayRaise = process.getuid?.() === 0;
    assert.equal(raiseThreadsNamed('lowered-thread'), mayRaise ? 1 : 0);
    if (mayRaise) assert.equal(niceOf(), String(own));
    Atomics.store(new Int32Array(gate), 0, 1);
    Atomics.notify(new Int32Array(gate), 0);
    await worker.terminate();
  });
});
