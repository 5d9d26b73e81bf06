/**
 * Simulator CPU per poll round at full-catalog size: every market and game polled once
 * (`fetchRaw` writes the upstream-shaped answers, `parse` reads them with the live parsers),
 * the median of several rounds five minutes apart after a warm-up; baseline: the same rounds'
 * snapshots alone (the price model, what the simulator cost before it used the live parsers).
 */
import { EXAMPLE_ITEMS } from '../src/boot/backfill.ts';
import { loadCatalogs } from '../src/catalog/index.ts';
import { MINUTE } from '../src/domain/clock.ts';
import { MARKET_IDS } from '../src/domain/markets.ts';
import { createSimAdapters } from '../src/markets/sim/adapters.ts';
import { MARKET_INFO } from '../src/markets/registry.ts';
import { buildSnapshot } from '../src/markets/sim/snapshot.ts';
import { createSimWorld } from '../src/markets/sim/world.ts';

const ROUNDS = 7;
const START = Date.UTC(2026, 10, 29, 12);

function cpuMs(since: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

export async function benchSimPoll(): Promise<void> {
  const catalogs = loadCatalogs();
  const options = { seed: 42, catalogs, deepItems: EXAMPLE_ITEMS, faults: false };
  const adapters = createSimAdapters(options);
  const world = createSimWorld(options);
  const rounds: number[] = [];
  const steam: number[] = [];
  const snapshots: number[] = [];
  for (let round = 0; round <= ROUNDS; round += 1) {
    const now = START + round * 5 * MINUTE;
    const started = process.cpuUsage();
    for (const adapter of adapters) {
      for (const game of adapter.info.games) {
        const one = process.cpuUsage();
        adapter.parse(await adapter.fetchRaw({ game, now }), { game, now });
        if (adapter.info.id === 'steamcommunity' && game === 'cs2') steam.push(cpuMs(one));
      }
    }
    rounds.push(cpuMs(started));
    const model = process.cpuUsage();
    for (const market of MARKET_IDS) {
      for (const game of MARKET_INFO[market].games) buildSnapshot(world, market, game, now, 0);
    }
    snapshots.push(cpuMs(model));
  }
  const [round, model, steamCs2] = [rounds, snapshots, steam].map((all) => median(all.slice(1)));
  console.log(
    `poll round (every market and game): ${(round! / 1000).toFixed(2)} s CPU, Steam CS2 ${(steamCs2! / 1000).toFixed(2)} s (median of ${ROUNDS} after a warm-up)`,
  );
  console.log(
    `baseline, the snapshots alone: ${(model! / 1000).toFixed(2)} s CPU; ratio ${(round! / model!).toFixed(2)}`,
  );
}
