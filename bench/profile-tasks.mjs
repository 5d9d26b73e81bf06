/**
 * Long tasks of one thread's `--cpu-prof` profile: runs of consecutive non-idle samples
 * longer than a threshold, each with its self-time leaders and the outermost named frames.
 * Usage: node bench/profile-tasks.mjs <file.cpuprofile> [thresholdMs=10] [fromS] [toS]
 */
import { readFileSync } from 'node:fs';

const [file, thresholdArg, fromArg, toArg] = process.argv.slice(2);
const threshold = Number(thresholdArg ?? 10);
const fromS = Number(fromArg ?? 0);
const toS = Number(toArg ?? Infinity);
const profile = JSON.parse(readFileSync(file, 'utf8'));
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map();
for (const node of profile.nodes)
  for (const child of node.children ?? []) parent.set(child, node.id);
const name = (node) => {
  const frame = node.callFrame;
  const where = frame.url ? frame.url.replace(/^.*\/(src|node_modules)\//, '$1/') : '';
  return `${frame.functionName || '(anon)'} ${where}:${frame.lineNumber + 1}`;
};
const IDLE = new Set(['(idle)', '(program)', '(root)']);
const isIdle = (id) => IDLE.has(nodes.get(id).callFrame.functionName);
/** The chain root→leaf of a sample, as names. */
const stack = (id) => {
  const names = [];
  for (let at = id; at !== undefined; at = parent.get(at)) names.push(nodes.get(at));
  return names.reverse().slice(1);
};

let t = profile.startTime;
const tasks = [];
let current = null;
const totals = new Map();
let busy = 0;
let gc = 0;
for (let i = 0; i < profile.samples.length; i += 1) {
  t += profile.timeDeltas[i];
  const delta = profile.timeDeltas[i + 1] ?? 0;
  const s = (t - profile.startTime) / 1e6;
  const id = profile.samples[i];
  if (s < fromS || s > toS) continue;
  if (isIdle(id)) {
    if (current) tasks.push(current);
    current = null;
    continue;
  }
  busy += delta;
  const leaf = nodes.get(id);
  if (leaf.callFrame.functionName === '(garbage collector)') gc += delta;
  const frames = stack(id);
  const top =
    frames.find((n) => n.callFrame.url && !n.callFrame.url.startsWith('node:')) ?? frames[0];
  const key = name(top ?? leaf);
  totals.set(key, (totals.get(key) ?? 0) + delta);
  current ??= { start: s, ms: 0, self: new Map(), roots: new Map() };
  current.ms += delta / 1000;
  const leafName = name(leaf);
  current.self.set(leafName, (current.self.get(leafName) ?? 0) + delta / 1000);
  const inner = frames
    .filter((n) => n.callFrame.url.includes('/src/'))
    .slice(0, 3)
    .map((n) => n.callFrame.functionName || '(anon)')
    .join(' > ');
  current.roots.set(inner, (current.roots.get(inner) ?? 0) + delta / 1000);
}
if (current) tasks.push(current);
const long = tasks.filter((task) => task.ms >= threshold);
const top = (map, n) =>
  [...map]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([k, v]) => `${v.toFixed(1)} ${k}`)
    .join(' | ');
const span = (Math.min(toS, (t - profile.startTime) / 1e6) - fromS).toFixed(1);
console.log(
  `${file}: window ${fromS}-${toS} s (${span} s), busy ${(busy / 1000).toFixed(0)} ms, GC ${(gc / 1000).toFixed(0)} ms, tasks>=${threshold} ms: ${long.length}, their sum ${long.reduce((a, b) => a + b.ms, 0).toFixed(0)} ms`,
);
for (const task of long.sort((a, b) => b.ms - a.ms).slice(0, Number(process.env.TASKS ?? 15))) {
  console.log(`  at ${task.start.toFixed(2)} s: ${task.ms.toFixed(1)} ms`);
  console.log(`    src: ${top(task.roots, 3)}`);
  console.log(`    self: ${top(task.self, 4)}`);
}
console.log('busy by first src frame:');
console.log('  ' + top(totals, 15).split(' | ').join('\n  '));
