import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { SERVER_NODE_FLAGS } from './node-flags.ts';

const root = new URL('../../', import.meta.url);

test('npm start and the pricing binary start node with the server flags', () => {
  const scripts = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')).scripts;
  const shebang = readFileSync(new URL('bin/pricing.js', root), 'utf8').split('\n')[0]!;
  for (const flag of SERVER_NODE_FLAGS) {
    assert.match(scripts.start, new RegExp(`^node (\\S+ )*${flag} .*bin/pricing\\.js serve`));
    assert.ok(shebang.split(' ').includes(flag), shebang);
  }
});

/**
 * A worker that makes garbage for 1.5 s, then the CPU ticks of the process's threads: the
 * worker (named), the main thread, and the rest (V8's helper threads).
 */
const CHURN = `
const { Worker } = require('node:worker_threads');
const fs = require('node:fs');
const churn = \`
  require('node:fs').writeFileSync('/proc/thread-self/comm', 'churn');
  const end = Date.now() + 1500;
  let kept = [];
  for (let n = 0; Date.now() < end; n += 1) {
    kept.push({ n, pair: [n, n + 1], text: 'x' + n });
    if (kept.length > 200000) kept = [];
  }
  require('node:worker_threads').parentPort.postMessage(kept.length);
  setInterval(() => {}, 1000);\`;
const worker = new Worker(churn, { eval: true, resourceLimits: { maxYoungGenerationSizeMb: 48 } });
worker.once('message', () => {
  const ticks = { churn: 0, helpers: 0 };
  for (const tid of fs.readdirSync('/proc/self/task')) {
    const stat = fs.readFileSync('/proc/self/task/' + tid + '/stat', 'utf8');
    if (tid === String(process.pid)) continue;
    const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
    const used = Number(fields[11]) + Number(fields[12]);
    ticks[stat.includes('(churn)') ? 'churn' : 'helpers'] += used;
  }
  console.log(JSON.stringify(ticks));
  void worker.terminate();
});`;

test(
  'with the server flags a worker collects its own garbage on its own thread',
  {
    skip: process.platform !== 'linux',
  },
  () => {
    const run = spawnSync(process.execPath, [...SERVER_NODE_FLAGS, '-e', CHURN], {
      encoding: 'utf8',
    });
    assert.equal(run.status, 0, run.stderr);
    const ticks = JSON.parse(run.stdout) as { churn: number; helpers: number };
    assert.ok(ticks.churn > 0, run.stdout);
    assert.ok(ticks.helpers <= ticks.churn * 0.1, `helper threads used ${run.stdout} ticks`);
  },
);
