/**
 * Probe: the scavenges of ingest cycles alone, as the ingest isolate runs them. Every simulated
 * market and game is polled through `runCycle` into a SQLite store at full-catalog size, once as
 * a warm-up and then ROUNDS times a minute apart; each committed batch is structured-cloned as the
 * worker's post to the HTTP thread does. Prints the rounds' wall time and their scavenges (count,
 * total, p50, max) by the stage they fell in: fetch (the simulator writes the answers), parse,
 * write (writeBatch), apply (the clone), other (normalise and the cycle's own work).
 * Usage: node --import tsx bench/cycle-scavenges.ts [items per slice]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { constants, PerformanceObserver } from 'node:perf_hooks';
import { EXAMPLE_ITEMS } from '../src/boot/backfill.ts';
import { loadCatalogs } from '../src/catalog/index.ts';
import { manualClock, MINUTE } from '../src/domain/clock.ts';
import type { IngestBatch } from '../src/domain/quote.ts';
import { runCycle, type CycleDeps } from '../src/ingest/cycle.ts';
import { DEFAULT_FX } from '../src/ingest/fx.ts';
import type { MarketAdapter } from '../src/markets/market-adapter.ts';
import { createSimAdapters } from '../src/markets/sim/adapters.ts';
import { createSqlitePriceStore } from '../src/store/sqlite/sqlite-price-store.ts';

const ROUNDS = 4;
const START = Date.UTC(2026, 10, 1, 12);

/** Which stage runs since when: a scavenge is charged to the stage in force at its start. */
class Stages {
  private readonly since: [number, string][] = [[0, 'other']];
  private current = 'other';

  run<T>(stage: string, work: () => T): T {
    const was = this.enter(stage);
    try {
      return work();
    } finally {
      this.enter(was);
    }
  }

  async runAsync<T>(stage: string, work: () => Promise<T>): Promise<T> {
    const was = this.enter(stage);
    try {
      return await work();
    } finally {
      this.enter(was);
    }
  }

  at(time: number): string {
    let low = 0;
    let high = this.since.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (this.since[middle]![0] <= time) low = middle;
      else high = middle - 1;
    }
    return this.since[low]![1];
  }

  private enter(stage: string): string {
    const was = this.current;
    this.current = stage;
    this.since.push([performance.now(), stage]);
    return was;
  }
}

function staged(adapter: MarketAdapter, stages: Stages): MarketAdapter {
  return {
    info: adapter.info,
    fetchRaw: (ctx) => stages.runAsync('fetch', () => adapter.fetchRaw(ctx)),
    parse: (body, ctx) => stages.run('parse', () => adapter.parse(body, ctx)),
  };
}

function watchScavenges(stages: Stages) {
  const seen: { stage: string; ms: number }[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = (entry as { detail?: { kind?: number } }).detail?.kind;
      if (kind !== constants.NODE_PERFORMANCE_GC_MINOR) continue;
      seen.push({ stage: stages.at(entry.startTime), ms: entry.duration });
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  return { seen, stop: () => observer.disconnect() };
}

function summary(scavenges: readonly { stage: string; ms: number }[]): string {
  const pauses = scavenges.map((entry) => entry.ms).sort((a, b) => a - b);
  const total = pauses.reduce((sum, ms) => sum + ms, 0);
  const byStage = new Map<string, { count: number; ms: number }>();
  for (const { stage, ms } of scavenges) {
    const held = byStage.get(stage) ?? { count: 0, ms: 0 };
    byStage.set(stage, { count: held.count + 1, ms: held.ms + ms });
  }
  const stages = [...byStage].map(([stage, t]) => `${stage} ${t.count} / ${t.ms.toFixed(0)} ms`);
  return (
    `${pauses.length} scavenges, ${total.toFixed(0)} ms, p50 ${pauses[pauses.length >> 1]?.toFixed(1)}, ` +
    `max ${pauses.at(-1)?.toFixed(1)} ms; by stage: ${stages.join(', ')}`
  );
}

const sliceItems = process.argv[2] ? Number(process.argv[2]) : undefined;
const catalogs = loadCatalogs();
const clock = manualClock(START);
const dir = mkdtempSync(join(tmpdir(), 'cycle-scavenges-'));
const store = createSqlitePriceStore({ path: join(dir, 'prices.db'), clock });
await store.init();
const stages = new Stages();
const simulated = createSimAdapters({
  seed: 42,
  catalogs,
  deepItems: EXAMPLE_ITEMS,
  faults: false,
});
const adapters = simulated.map((adapter) => staged(adapter, stages));
const deps: CycleDeps = {
  catalogs,
  fx: () => DEFAULT_FX,
  book: { apply: (batch: IngestBatch) => stages.run('apply', () => structuredClone(batch)) },
  store: {
    writeBatch: (batch, fence) => stages.runAsync('write', () => store.writeBatch(batch, fence)),
  },
  clock,
  onBookError: (error) => console.error(error),
  ...(sliceItems === undefined ? {} : { sliceItems }),
};

async function round(at: number): Promise<void> {
  clock.set(at);
  for (const adapter of adapters) {
    for (const game of adapter.info.games) {
      const outcome = await runCycle(adapter, game, deps);
      if (outcome.error) console.error(`${adapter.info.id}/${game}: ${outcome.error.message}`);
    }
  }
}

try {
  await round(START);
  const watch = watchScavenges(stages);
  const started = performance.now();
  for (let index = 1; index <= ROUNDS; index += 1) await round(START + index * MINUTE);
  const wallS = (performance.now() - started) / 1000;
  await new Promise((resolve) => setTimeout(resolve, 100));
  watch.stop();
  const slices = sliceItems ?? 'default';
  console.log(
    `${ROUNDS} rounds, slices of ${slices}: ${wallS.toFixed(1)} s; ${summary(watch.seen)}`,
  );
} finally {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
}
