/**
 * The reporter `npm test` runs with: Node's own spec output on a terminal, TAP otherwise, with a
 * final summary that counts what was skipped. Node counts skipped tests but not skipped suites
 * (`describe(name, { skip })`), so a run missing DATABASE_URL or REDIS_URL said "skipped 0".
 * Here `skipped` counts both, each skipped suite or test is listed with its reason, and when
 * DATABASE_URL and REDIS_URL are both set (as in CI) anything skipped fails the run: with both
 * services present no suite has a reason to skip.
 * The summary also names the slowest test files (wall time of each file, which runs as a suite
 * named by its path: scripts/test-group.mjs), and ends with every failed test and its error's
 * first line, so a log that keeps only its tail (as CI's does) still says what failed.
 */
import { relative } from 'node:path';
import { Readable } from 'node:stream';
import { spec, tap } from 'node:test/reporters';

const SUMMARY_LINE = /^(tests|suites|pass|fail|cancelled|skipped|todo|duration_ms) /;

/** True when every service the suites may need is configured, so nothing may skip. */
export function skipsForbidden(env = process.env) {
  return Boolean(env.DATABASE_URL && env.REDIS_URL);
}

function isRunSummary(event) {
  return (
    event.type === 'test:diagnostic' &&
    event.data.nesting === 0 &&
    event.data.file === undefined &&
    SUMMARY_LINE.test(event.data.message)
  );
}

function skipOf(event) {
  if (event.type !== 'test:pass' || event.data.skip === undefined) return null;
  const kind = event.data.details?.type === 'suite' ? 'suite' : 'test';
  const reason = typeof event.data.skip === 'string' ? event.data.skip : 'no reason given';
  const file = event.data.file ? relative(process.cwd(), event.data.file) : '';
  return { kind, name: event.data.name, file, reason };
}

const SLOWEST_SHOWN = 10;
const FAILURE_MESSAGE_CHARS = 300;

/** A failed test (not a suite, whose failure is its tests'), else null. */
function failureOf(event) {
  if (event.type !== 'test:fail' || event.data.details?.type === 'suite') return null;
  const error = event.data.details?.error;
  const message = String(error?.cause?.message ?? error?.message ?? 'no message');
  const firstLine = message.split('\n')[0].slice(0, FAILURE_MESSAGE_CHARS);
  const file = event.data.file ? relative(process.cwd(), event.data.file) : '';
  return { name: event.data.name, file, message: firstLine };
}

/**
 * A whole file's completion, else null: the top-level suite named by the file's path (a test
 * process's own completion is named by its module, which is the event's `file`).
 */
function fileTimeOf(event) {
  if (event.type !== 'test:complete' || event.data.nesting !== 0) return null;
  const { file, name, details } = event.data;
  if (name === file || !name.endsWith('.test.ts') || details?.duration_ms === undefined) {
    return null;
  }
  return { file: name, ms: Math.round(details.duration_ms) };
}

export function slowestFirst(fileTimes) {
  return [...fileTimes].sort((a, b) => b.ms - a.ms);
}

function diagnostic(message) {
  return { type: 'test:diagnostic', data: { nesting: 0, message } };
}

/** Lines of the final summary, `skipped` recounted, then one line per skip. */
export function summaryLines(runnerLines, skips, forbidden, fileTimes = [], failures = []) {
  const suites = skips.filter((skip) => skip.kind === 'suite').length;
  const lines = runnerLines.map((line) =>
    line.startsWith('skipped ')
      ? `skipped ${skips.length} (${suites} suites, ${skips.length - suites} tests)`
      : line,
  );
  for (const skip of skips) {
    lines.push(`skipped ${skip.kind}: ${skip.name} (${skip.reason}) ${skip.file}`.trimEnd());
  }
  if (fileTimes.length > 0) {
    lines.push('slowest files:');
    for (const { ms, file } of slowestFirst(fileTimes).slice(0, SLOWEST_SHOWN)) {
      lines.push(`  ${ms} ms ${file}`);
    }
  }
  if (forbidden && skips.length > 0) {
    lines.push('fail: DATABASE_URL and REDIS_URL are set, so nothing may be skipped');
  }
  for (const failure of failures) {
    lines.push(`failed: ${failure.name} (${failure.file}): ${failure.message}`);
  }
  return lines;
}

async function* recounted(source, state) {
  const runnerLines = [];
  for await (const event of source) {
    if (isRunSummary(event)) {
      runnerLines.push(event.data.message);
      continue;
    }
    const skip = skipOf(event);
    if (skip) state.skips.push(skip);
    const fileTime = fileTimeOf(event);
    if (fileTime) state.fileTimes.push(fileTime);
    const failure = failureOf(event);
    if (failure) state.failures.push(failure);
    yield event;
  }
  const { skips, forbidden, fileTimes, failures } = state;
  for (const line of summaryLines(runnerLines, skips, forbidden, fileTimes, failures)) {
    yield diagnostic(line);
  }
}

export default async function* reporter(source) {
  const state = { skips: [], fileTimes: [], failures: [], forbidden: skipsForbidden() };
  const events = recounted(source, state);
  const output = process.stdout.isTTY ? Readable.from(events).pipe(new spec()) : tap(events);
  for await (const chunk of output) yield chunk;
  if (state.forbidden && state.skips.length > 0) process.exitCode = 1;
}
