import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startServer, tempDataDir, type RunningServer } from './cli-helpers.ts';

interface CurlExample {
  line: string;
  url: string;
  keyed: boolean;
}

/** Every `curl` line of the README with its URL and whether it sends the key. */
function readmeCurls(): CurlExample[] {
  const readme = readFileSync(join(import.meta.dirname, '..', 'README.md'), 'utf8');
  return readme
    .split('\n')
    .filter((line) => line.startsWith('curl '))
    .map((line) => {
      const url = /"(http:\/\/127\.0\.0\.1:8080[^"]*)"/.exec(line)?.[1];
      assert.ok(url, `no URL in: ${line}`);
      return { line, url, keyed: line.includes('Authorization: ApiKey $KEY') };
    });
}

describe('README: every curl example works as written against a live server', () => {
  const dir = tempDataDir();
  let server: RunningServer;
  let key = '';
  const examples = readmeCurls();

  before(async () => {
    server = await startServer(['--source', 'sim', '--backfill-days', '0', '--data', dir]);
    key = readFileSync(join(dir, 'demo-key.txt'), 'utf8').trim();
  });
  after(async () => {
    await server?.stop();
  });

  test('the README has curl examples for every delivered endpoint', () => {
    assert.ok(examples.length >= 15, `only ${examples.length} curl examples`);
  });

  test('each example answers 200 with JSON', async () => {
    for (const example of examples) {
      const url = example.url.replace('http://127.0.0.1:8080', server.baseUrl);
      const headers: Record<string, string> = example.keyed
        ? { Authorization: `ApiKey ${key}` }
        : {};
      let response = await fetch(url, { headers });
      const notYet = (status: number) => status === 503 || status === 404;
      for (let attempt = 0; attempt < 120 && notYet(response.status); attempt += 1) {
        await new Promise((r) => setTimeout(r, 500));
        response = await fetch(url, { headers });
      }
      const body = await response.text();
      assert.equal(
        response.status,
        200,
        `${example.line}\n→ ${response.status} ${body.slice(0, 300)}`,
      );
      assert.doesNotThrow(() => JSON.parse(body), example.line);
    }
  });
});
