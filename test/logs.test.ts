/**
 * What `pricing serve` logs, read from the real process: one line says where it listens, no
 * line per request unless the access log is asked for (`--access-log`), then exactly one per
 * request, carrying its request id.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CATALOG_CUT, startServer, tempDataDir, type RunningServer } from './cli-helpers.ts';

function jsonLines(output: string): { msg?: string; reqId?: string; level?: number }[] {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line));
}

async function requestIds(server: RunningServer, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const response = await fetch(`${server.baseUrl}/v1/markets/health`);
    await response.arrayBuffer();
    ids.push(response.headers.get('x-request-id') ?? '');
  }
  const missing = await fetch(`${server.baseUrl}/nowhere`);
  await missing.arrayBuffer();
  ids.push(missing.headers.get('x-request-id') ?? '');
  return ids;
}

/**
 * Waits until `predicate` holds for the output (log lines are written asynchronously); the
 * limit only guards against a hang.
 */
async function settled(server: RunningServer, predicate: (output: string) => boolean) {
  const deadline = Date.now() + 60_000;
  while (!predicate(server.output())) {
    assert.ok(Date.now() < deadline, `the log never showed it:\n${server.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('serve logs', () => {
  test('by default: one listening line and no line per request', async () => {
    const server = await startServer([
      '--source',
      'sim',
      '--backfill-days',
      '0',
      // A small simulated universe: the logs are what this test reads, not the quotes.
      '--sim-items',
      '50',
      ...CATALOG_CUT,
      '--data',
      tempDataDir(),
    ]);
    try {
      const ids = await requestIds(server, 3);
      // Gives a per-request line (which must not come) time to arrive; a slow machine can only
      // make this check miss a line, never fail it.
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      const output = server.output();
      const listening = output.split('\n').filter((line) => /listening/i.test(line));
      assert.deepEqual(listening, [`listening on ${server.baseUrl}`]);
      const perRequest = jsonLines(output).filter(
        (line) => line.reqId !== undefined || ids.some((id) => JSON.stringify(line).includes(id)),
      );
      assert.deepEqual(perRequest, []);
      assert.doesNotMatch(output, /incoming request|request completed/);
    } finally {
      // SIGKILL: how it stops is not what this test is about, and a graceful stop of a
      // simulator that just started took minutes on a busy machine.
      await server.stop('SIGKILL');
    }
  });

  test('--access-log: exactly one info line per request, with its request id', async () => {
    const args = ['--source', 'none', '--access-log', ...CATALOG_CUT, '--data', tempDataDir()];
    const server = await startServer(args);
    try {
      const ids = await requestIds(server, 3);
      const accessLines = () => jsonLines(server.output()).filter((line) => line.msg === 'request');
      await settled(server, () => accessLines().length >= ids.length);
      const lines = accessLines();
      assert.deepEqual(
        lines.map((line) => line.reqId),
        ids,
      );
      assert.ok(lines.every((line) => line.level === 30));
      const last = lines.at(-1) as { statusCode?: number; url?: string; method?: string };
      assert.deepEqual([last.method, last.url, last.statusCode], ['GET', '/nowhere', 404]);
    } finally {
      await server.stop();
    }
  });
});
