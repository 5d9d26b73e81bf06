/**
 * Heap and RSS per component, each measured as the growth it causes after a full GC
 * (`--expose-gc`, run in a child so nothing else is in the heap): the catalogs (CS2 from
 * @ianlucas/cs2-lib, Rust), the item-data package's module graph kept alive by them, and the
 * book a running simulator holds (one fetch of every market, full CS2 catalog).
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

interface Sample {
  heap: number;
  rss: number;
}

function sample(): Sample {
  (globalThis as { gc?: () => void }).gc?.();
  const usage = process.memoryUsage();
  return { heap: usage.heapUsed, rss: usage.rss };
}

function report(label: string, before: Sample, after: Sample): Sample {
  console.log(
    `${label}: heap +${mb(after.heap - before.heap)} (now ${mb(after.heap)}), RSS +${mb(after.rss - before.rss)} (now ${mb(after.rss)})`,
  );
  return after;
}

async function measureInChild(): Promise<void> {
  const start = sample();
  const { loadCatalogs } = await import('../src/catalog/index.ts');
  const imported = report('modules (catalog code + @ianlucas/cs2-lib imported)', start, sample());
  const catalogs = loadCatalogs();
  const built = report(
    `catalogs built (${catalogs.cs2.items.length} cs2 + ${catalogs.rust.items.length} rust items)`,
    imported,
    sample(),
  );
  const { fullBook } = await import('./full-book.ts');
  const book = await fullBook(catalogs, Date.parse('2026-11-01T12:00:00Z'));
  let sides = 0;
  for (const itemId of book.quotedItemIds('cs2')) sides += book.sides('cs2', itemId).length;
  report(
    `book, one fetch of every simulated market (${sides} cs2 item × market entries)`,
    built,
    sample(),
  );
}

export function benchMemory(): void {
  const self = fileURLToPath(import.meta.url);
  const child = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', self, '--child'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  process.stdout.write(child.stdout);
}

if (process.argv.includes('--child')) await measureInChild();
