/**
 * Child of heap-policy.test.ts: in a process whose heap holds nothing else, runs a worker that
 * makes young garbage with V8's defaults, then another after applying the heap policy, and
 * prints the CPU time of each. In the test's own process, the garbage of the test before and the
 * runner's own work kept V8's helper threads busy during the measurement.
 */
import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import v8 from 'node:v8';
import { Worker } from 'node:worker_threads';
import { applyHeapPolicy } from './heap-policy.ts';

function cpuByThread(): Map<string, number> {
  return new Map(
    readdirSync('/proc/self/task').map((tid) => {
      const schedstat = readFileSync(`/proc/self/task/${tid}/schedstat`, 'utf8');
      return [tid, Number(schedstat.split(' ')[0])];
    }),
  );
}

/** Young garbage with a few arrays kept alive across scavenges, then the thread's id. */
const CHURN = `
const { parentPort } = require('node:worker_threads');
const tid = require('node:fs').readFileSync('/proc/thread-self/stat', 'utf8').split(' ')[0];
let live = [];
for (let round = 0; round < 240; round += 1) {
  const items = new Array(20000);
  for (let i = 0; i < items.length; i += 1) items[i] = { i, list: [i] };
  live.push(items);
  if (live.length > 3) live.shift();
}
parentPort.postMessage(tid);
`;

/** CPU time (ns) of the churning worker's thread and of every other thread but the main one. */
async function churnCpu(): Promise<{ own: number; helpers: number }> {
  const before = cpuByThread();
  const worker = new Worker(CHURN, {
    eval: true,
    execArgv: [],
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
  return { own, helpers };
}

// V8 may pretenure the churn's objects (allocate them old), which leaves few scavenges to measure.
v8.setFlagsFromString('--no-allocation-site-pretenuring');
const withoutPolicy = await churnCpu();
applyHeapPolicy();
const withPolicy = await churnCpu();
process.stdout.write(JSON.stringify({ withoutPolicy, withPolicy }));
