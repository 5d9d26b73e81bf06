/**
 * What held one thread in a window of its `--cpu-prof` profile: the longest gaps between samples
 * (the thread off the core), the longest runs of garbage collector samples, and self time.
 * Usage: node bench/profile-stalls.mjs <file.cpuprofile> [fromS] [toS] (seconds from its start)
 */
import { readFileSync } from 'node:fs';

const [file, fromArg = '0', toArg = '1e9'] = process.argv.slice(2);
const profile = JSON.parse(readFileSync(file, 'utf8'));
const nameOf = new Map(
  profile.nodes.map(({ id, callFrame }) => [
    id,
    callFrame.functionName ||
      `(anonymous ${callFrame.url.split('/').pop()}:${callFrame.lineNumber})`,
  ]),
);
const GAP_US = 4000;
const from = profile.startTime + Number(fromArg) * 1e6;
const to = profile.startTime + Number(toArg) * 1e6;
const seconds = (at) => ((at - profile.startTime) / 1e6).toFixed(2);
const gaps = [];
const collections = [];
const self = new Map();
let [at, previous, collecting, total] = [profile.startTime, null, null, 0];
profile.samples.forEach((id, index) => {
  at += profile.timeDeltas[index];
  if (at < from || at > to) return;
  const name = nameOf.get(id);
  self.set(name, (self.get(name) ?? 0) + 1);
  total += 1;
  if (previous !== null && at - previous > GAP_US) gaps.push([at - previous, previous, name]);
  if (name === '(garbage collector)') collecting ??= previous ?? at;
  else if (collecting !== null) {
    collections.push([at - collecting, collecting]);
    collecting = null;
  }
  previous = at;
});
const longest = (runs) =>
  runs
    .sort((a, b) => b[0] - a[0])
    .slice(0, 8)
    .map(
      ([us, start, then]) =>
        `${(us / 1000).toFixed(1)} ms at ${seconds(start)} s${then ? ` (then ${then})` : ''}`,
    )
    .join('; ');
console.log(`samples: ${total}`);
console.log(`longest gaps between samples: ${longest(gaps)}`);
console.log(`longest collector runs: ${longest(collections)}`);
const leaders = [...self].sort((a, b) => b[1] - a[1]).slice(0, 12);
console.log(
  `self: ${leaders.map(([name, n]) => `${name} ${((100 * n) / total).toFixed(1)}%`).join(', ')}`,
);
