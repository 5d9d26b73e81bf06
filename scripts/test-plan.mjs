/**
 * Which test process runs which test files, and in what order (scripts/run-tests.mjs).
 * A process start costs about 0.35 s of CPU before its first test (Node, then tsx), and a
 * route test's first app about 0.5 s more, so the unit tests of src/ share a few processes,
 * each importing its files one after another. A file keeps a process of its own when it is
 * under test/ (end-to-end: servers, browsers, the CLI) or says so in a line containing
 * `own test process` (with its reason). Units start longest first, by the seconds of
 * scripts/test-weights.json (a file not listed counts as DEFAULT_WEIGHT).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const DEFAULT_WEIGHT = 1;
/** Seconds a shared process aims at: enough to pay its start, few enough to balance the end. */
export const GROUP_TARGET = 30;
const OWN_PROCESS = /own test process/;

export function collectTestFiles(dir, out = []) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) collectTestFiles(path, out);
    else if (name.endsWith('.test.ts')) out.push(path);
  }
  return out;
}

export function needsOwnProcess(file, source) {
  return !file.startsWith('src') || OWN_PROCESS.test(source);
}

export function readWeights(path) {
  try {
    return JSON.parse(readFileSync(path, 'utf8')).seconds;
  } catch {
    return {};
  }
}

/** Splits the shared files into groups of about GROUP_TARGET seconds, heaviest file first. */
export function groupFiles(files, weightOf, target = GROUP_TARGET) {
  const total = files.reduce((sum, file) => sum + weightOf(file), 0);
  const count = Math.max(1, Math.min(files.length, Math.round(total / target)));
  const groups = Array.from({ length: count }, () => ({ files: [], weight: 0 }));
  for (const file of [...files].sort((a, b) => weightOf(b) - weightOf(a))) {
    const lightest = groups.reduce((min, group) => (group.weight < min.weight ? group : min));
    lightest.files.push(file);
    lightest.weight += weightOf(file);
  }
  return groups.filter((group) => group.files.length > 0);
}

/**
 * The processes to run, longest first: `{ files, weight }` each. `sourceOf(file)` reads a
 * file's text (for the own-process line), `weights` maps paths to CPU seconds.
 */
export function planUnits(files, { weights, sourceOf }) {
  const weightOf = (file) => weights[file] ?? DEFAULT_WEIGHT;
  const own = files.filter((file) => needsOwnProcess(file, sourceOf(file)));
  const shared = files.filter((file) => !own.includes(file));
  const units = [
    ...own.map((file) => ({ files: [file], weight: weightOf(file) })),
    ...groupFiles(shared, weightOf),
  ];
  return units.sort((a, b) => b.weight - a.weight || a.files[0].localeCompare(b.files[0]));
}
