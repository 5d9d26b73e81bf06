/**
 * Every `curl` line of the README and of every page under docs/, run as written against a live
 * `pricing serve --source sim` started like `npm start` (only a shorter backfill): each answers
 * 200 and shows data, checked per endpoint (non-empty rows, the fields the docs describe,
 * history reaching back into the backfill). The items the examples name are the ones the
 * first-start backfill always covers.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { EXAMPLE_ITEMS } from '../src/boot/backfill.ts';
import { startServer, tempDataDir, type RunningServer } from './cli-helpers.ts';
import { checkShowsData } from './readme-content.ts';

interface CurlExample {
  /** The page it comes from, relative to the repository root. */
  page: string;
  line: string;
  url: string;
  keyed: boolean;
  /** The JSON body of a `-X POST … -d '…'` example. */
  body: string | null;
}

const ROOT = join(import.meta.dirname, '..');

/** README.md and every Markdown page under docs/, as paths from the repository root. */
function docPages(): string[] {
  const docs = readdirSync(join(ROOT, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.md'))
    .map((name) => relative(ROOT, join(ROOT, 'docs', name)))
    .sort();
  return ['README.md', ...docs];
}

/** Every `curl` line of the docs with its page, its URL and whether it sends the key. */
function docCurls(): CurlExample[] {
  return docPages().flatMap((page) =>
    readFileSync(join(ROOT, page), 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('curl '))
      .map((line) => {
        const url = /"(http:\/\/127\.0\.0\.1:8080[^"]*)"/.exec(line)?.[1];
        assert.ok(url, `no URL in ${page}: ${line}`);
        const body = line.includes('-X POST') ? (/ -d '([^']*)'/.exec(line)?.[1] ?? null) : null;
        return { page, line, url, keyed: line.includes('Authorization: ApiKey $KEY'), body };
      }),
  );
}

/** The item names an example URL uses, in its path or its item parameters. */
function itemsNamed(url: URL): string[] {
  const names: string[] = [];
  const inPath =
    /^\/v[12]\/(?:pricing|recommendations|market-analytics|liquidity(?:\/summary)?)\/(?!(?:items|batch)(?:\/|$))([^/]+)/.exec(
      url.pathname,
    );
  if (inPath) names.push(decodeURIComponent(inPath[1]!));
  const single = url.searchParams.get('market_hash_name');
  if (single) names.push(single);
  const attribute = url.searchParams.get('marketHashName');
  if (attribute) names.push(attribute);
  const several = url.searchParams.get('marketHashNames');
  if (several) names.push(...several.split(','));
  return names;
}

/**
 * A hang guard for an example to show data. Most show it at once; an example that needs a given
 * market's polls waits for them (arbitrage 34.5 s, Steam liquidity 40.3 s with the server on a
 * third of a core), and a starved machine starts the ingest worker minutes late (two minutes at
 * load average 50).
 */
const SHOWS_DATA_WITHIN_MS = 480_000;

describe('README and docs/: every curl example works as written and shows data', () => {
  const dir = tempDataDir();
  let server: RunningServer;
  let key = '';
  let startedAt = 0;
  const examples = docCurls();

  before(async () => {
    startedAt = Date.now();
    // One backfilled day instead of seven: the same items, and every example reads within it.
    const args = ['--source', 'sim', '--backfill-days', '1', '--data', dir];
    server = await startServer(args, { timeoutMs: 240_000 });
    key = readFileSync(join(dir, 'demo-key.txt'), 'utf8').trim();
  });
  after(async () => {
    // SIGKILL: how the server stops is not what this test is about, and a graceful stop of a
    // simulator that just started took minutes on a busy machine.
    await server?.stop('SIGKILL');
  });

  test('the docs have curl examples for every delivered endpoint', () => {
    assert.ok(examples.length >= 15, `only ${examples.length} curl examples`);
  });

  test('the README itself shows a few examples, and the API pages carry the rest', () => {
    const perPage = (page: string) => examples.filter((example) => example.page === page).length;
    assert.ok(perPage('README.md') >= 3, 'the README tour has curl examples');
    assert.ok(perPage(join('docs', 'api', 'pricing.md')) >= 3, 'docs/api/pricing.md has examples');
  });

  test('the items the examples name are exactly the ones the backfill always covers', () => {
    const named = new Set(examples.flatMap((example) => itemsNamed(new URL(example.url))));
    assert.deepEqual([...named].sort(), [...EXAMPLE_ITEMS].sort());
  });

  test('each example answers 200 with JSON that shows data', async () => {
    for (const example of examples) {
      const url = example.url.replace('http://127.0.0.1:8080', server.baseUrl);
      const headers: Record<string, string> = example.keyed
        ? { Authorization: `ApiKey ${key}` }
        : {};
      const deadline = Date.now() + SHOWS_DATA_WITHIN_MS;
      let failure = '';
      for (;;) {
        const response = await fetch(
          url,
          example.body === null
            ? { headers }
            : {
                method: 'POST',
                headers: { ...headers, 'Content-Type': 'application/json' },
                body: example.body,
              },
        );
        const body = await response.text();
        failure = `${example.page}: ${example.line}\n→ ${response.status} ${body.slice(0, 400)}`;
        if (response.status === 200) {
          try {
            checkShowsData(new URL(url), JSON.parse(body), startedAt);
            failure = '';
          } catch (error) {
            failure += `\n${(error as Error).message}`;
          }
        }
        if (failure === '' || Date.now() > deadline) break;
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
      assert.equal(failure, '', failure);
    }
  });
});
