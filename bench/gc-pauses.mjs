/**
 * Pause totals per isolate and kind from a `--trace-gc` log, within a window of the isolate's
 * own clock. Usage: node bench/gc-pauses.mjs <gc.log> [fromS] [toS]
 */
import { readFileSync } from 'node:fs';

const [file, fromArg, toArg] = process.argv.slice(2);
const from = Number(fromArg ?? 0) * 1000;
const to = Number(toArg ?? Infinity) * 1000;
const line =
  /^\[\d+:(0x[0-9a-f]+)\]\s+(\d+) ms: (Scavenge|Mark-Compact|Mark-Compact \(reduce\)|Minor Mark-Compact)[^,]*, ([\d.]+) \/ ([\d.]+) ms/;
const stats = new Map();
for (const text of readFileSync(file, 'utf8').split('\n')) {
  const m = line.exec(text);
  if (!m || Number(m[2]) < from || Number(m[2]) > to) continue;
  const key = `${m[1]} ${m[3]}`;
  const held = stats.get(key) ?? { n: 0, sum: 0, max: 0, over10: 0 };
  const ms = Number(m[4]);
  held.n += 1;
  held.sum += ms;
  held.max = Math.max(held.max, ms);
  if (ms >= 10) held.over10 += 1;
  stats.set(key, held);
}
for (const [key, s] of stats)
  console.log(
    `${key}: ${s.n} pauses, ${s.sum.toFixed(0)} ms, max ${s.max.toFixed(1)}, >=10 ms: ${s.over10}`,
  );
