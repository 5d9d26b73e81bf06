// Runs in an own test process: other files' heaps would keep V8's helper threads busy while the
// CPU of its threads is measured.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import v8 from 'node:v8';
import { Worker } from 'node:worker_threads';
import { applyHeapPolicy } from './heap-policy.ts';

/**
 * About 50 MB kept alive while objects that live long enough to reach the old generation keep
 * dying: how far the committed heap grew, MB. Without the policy it grew by 344 MB under the
 * test runner on the development machine (towards four times what it keeps); with it, by 152.
 */
function peakHeapMbUnderChurn(): number {
  const before = v8.getHeapStatistics().total_heap_size;
  const kept: unknown[] = [];
  for (let index = 0; index < 300_000; index += 1) kept.push({ index, pair: [index, index + 1] });
  const generations: unknown[][] = Array.from({ length: 12 }, () => []);
  let peak = 0;
  for (let round = 0; round < 150; round += 1) {
    const generation: unknown[] = [];
    for (let index = 0; index < 40_000; index += 1) generation.push({ round, text: `x${index}` });
    generations[round % generations.length] = generation;
    peak = Math.max(peak, v8.getHeapStatistics().total_heap_size);
  }
  assert.equal(kept.length, 300_000);
  return (peak - before) / 2 ** 20;
}

test('with the heap policy, the old generation is collected before it grows far past what it keeps', () => {
  applyHeapPolicy();
  const peakMb = peakHeapMbUnderChurn();
  assert.ok(peakMb < 240, `committed heap grew by ${peakMb.toFixed(0)} MB`);
});

/** CPU time (ns) of each thread of this process, by thread id. */
function cpuByThread(): Map<string, number> {
  return new Map(
    readdirSync('/proc/self/task').map((tid) => {
      const schedstat = readFileSync(`/proc/self/task/${tid}/schedstat`, 'utf8');
      return [tid, Number(schedstat.split(' ')[0])];
    }),
  );
}

/** A worker that makes young garbage (a few arrays kept alive across scavenges), then its id. */
const CHURN = `
const { parentPort } = require('node:worker_threads');
const tid = require('node:fs').readFileSync('/proc/thread-self/stat', 'utf8').split(' ')[0];
let live = [];
for (let round = 0; round < 120; round += 1) {
  const items = new Array(20000);
  for (let i = 0; i < items.length; i += 1) items[i] = { i, list: [i] };
  live.push(items);
  if (live.length > 3) live.shift();
}
parentPort.postMessage(tid);
`;

test(
  "with the heap policy, a worker's scavenges run on its own thread, not V8's helpers",
  { skip: process.platform !== 'linux' && 'per-thread CPU is read from /proc' },
  async () => {
    applyHeapPolicy();
    const before = cpuByThread();
    const worker = new Worker(CHURN, {
      eval: true,
      resourceLimits: { maxYoungGenerationSizeMb: 32 },
    });
    const workerTid = String(await once(worker, 'message').then(([tid]) => tid));
    const after = cpuByThread();
    await once(worker, 'exit');
    let [own, helpers] = [0, 0];
    for (const [tid, ns] of after) {
      const spent = ns - (before.get(tid) ?? 0);
      if (tid === workerTid) own = spent;
      else if (tid !== String(process.pid)) helpers += spent;
    }
    // Measured: 0.14-0.18 of the worker's CPU with the policy, 0.52-1.98 without, with or without
    // two busy loops beside it.
    assert.ok(
      helpers < own * 0.35,
      `helpers ${helpers / 1e6} ms against the worker's ${own / 1e6} ms`,
    );
  },
);
