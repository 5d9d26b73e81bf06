/**
 * Heap and RSS per component, each measured as the growth it causes after a full GC
 * (`--expose-gc`, run in a child so nothing else is in the heap): the catalogs (CS2 from
 * @ianlucas/cs2-lib, Rust, built on a short-lived thread), the ingest worker's slim copy, and
 * the book a running simulator holds (one fetch of every market, full CS2 catalog); then, in
 * a second child, what importing the package and building in-process costs a thread.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

interface Sample {
  heap: number;
  /** Typed-array backing stores (outside the heap; the book's packed sides live here). */
  buffers: number;
  rss: number;
}

function sample(): Sample {
  (globalThis as { gc?: () => void }).gc?.();
  const usage = process.memoryUsage();
  return { heap: usage.heapUsed, buffers: usage.arrayBuffers, rss: usage.rss };
}

function report(label: string, before: Sample, after: Sample): Sample {
  console.log(
    `${label}: heap +${mb(after.heap - before.heap)} (now ${mb(after.heap)}), array buffers +${mb(after.buffers - before.buffers)}, RSS +${mb(after.rss - before.rss)} (now ${mb(after.rss)})`,
  );
  return after;
}

/** Lets a finished build thread exit before RSS is read. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

/** What each thread paid before the build thread: the package imported and the catalogs built. */
async function measureInProcessBuild(): Promise<void> {
  const start = sample();
  const { buildCatalogData } = await import('../src/catalog/build-data.ts');
  const imported = report(
    'for comparison, in-process: @ianlucas/cs2-lib imported',
    start,
    sample(),
  );
  const { catalogsFrom } = await import('../src/catalog/catalog-data.ts');
  const catalogs = catalogsFrom(buildCatalogData());
  report(
    `for comparison, in-process: catalogs built (${catalogs.cs2.items.length} cs2 items)`,
    imported,
    sample(),
  );
}

async function measureInChild(): Promise<void> {
  const start = sample();
  const { loadCatalogs } = await import('../src/catalog/index.ts');
  const imported = report(
    'modules (catalog code; @ianlucas/cs2-lib loads on the build thread only)',
    start,
    sample(),
  );
  const catalogs = loadCatalogs();
  await settle();
  const built = report(
    `catalogs built on a short-lived thread (${catalogs.cs2.items.length} cs2 + ${catalogs.rust.items.length} rust items)`,
    imported,
    sample(),
  );
  const { catalogsFrom, loadCs2Registries, slimCatalogData } =
    await import('../src/catalog/index.ts');
  const ingestCatalogs = catalogsFrom(slimCatalogData(catalogs, loadCs2Registries()));
  const slimmed = report(
    `ingest worker's catalogs (slim data from the main thread, ${ingestCatalogs.cs2.items.length} cs2 items)`,
    built,
    sample(),
  );
  const { fullBook } = await import('./full-book.ts');
  const book = await fullBook(catalogs, Date.parse('2026-11-01T12:00:00Z'));
  let sides = 0;
  for (const itemId of book.quotedItemIds('cs2')) sides += book.sides('cs2', itemId).length;
  report(
    `book, one fetch of every simulated market (${sides} cs2 item × market entries)`,
    slimmed,
    sample(),
  );
  await new Promise((resolve) => setTimeout(resolve, 5_000));
  report('book, 5 s later (the pages the fetch freed given back)', slimmed, sample());
  assert.ok(book.version('cs2') > 0, 'the book stays alive until here');
  assert.ok(ingestCatalogs.cs2.items.length > 0, 'the ingest catalogs stay alive until here');
}

export function benchMemory(): void {
  const self = fileURLToPath(import.meta.url);
  for (const flag of ['--child', '--child-in-process']) {
    const child = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', self, flag], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    process.stdout.write(child.stdout);
  }
}

if (process.argv.includes('--child')) await measureInChild();
if (process.argv.includes('--child-in-process')) await measureInProcessBuild();
