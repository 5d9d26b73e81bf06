/**
 * Individual listings on float markets: a few slots per item, each holding one listing for a
 * seeded lifetime (2 hours to 3 days), so ids, floats, seeds, phases and stickers stay put
 * while a listing lives and change when it sells or is pulled. Floats fall inside the item's
 * band, one slot per equal stratum of it (in a per-item shuffled order), so a fetch of 8 or
 * more slots puts a listing in every Buff163 band of the exterior; paint seeds in 0..999 (so
 * Fade items get a fade percentage), Doppler items carry a phase and its paint index. The
 * cheapest slot sits at the market's best ask; the rest are dearer by rank, low float and rare
 * phase.
 */
import { HOUR } from '../../domain/clock.ts';
import type { DopplerChoice, SimGame, SimItem } from './items.ts';
import { mix, mix3, unit } from './random.ts';

export interface SimListing {
  id: string;
  price: number;
  floatValue: number | null;
  paintSeed: number;
  paintIndex: number | null;
  phase: string | null;
  inspectLink: string;
  stickers: string[];
  isStatTrak: boolean;
}

const MIN_SLOTS = 8;
const MAX_SLOTS = 14;

export function hasListings(item: SimItem): boolean {
  return item.floatBand !== null || item.dopplers !== null;
}

function pickDoppler(choices: DopplerChoice[], u: number, commonOnly: boolean): DopplerChoice {
  const pool = commonOnly ? choices.filter((choice) => choice.weight >= 1) : choices;
  const from = pool.length > 0 ? pool : choices;
  const total = from.reduce((sum, choice) => sum + choice.weight, 0);
  let target = u * total;
  for (const choice of from) {
    target -= choice.weight;
    if (target < 0) return choice;
  }
  return from[from.length - 1]!;
}

function stickersFor(key: number, names: readonly string[]): string[] {
  if (names.length === 0 || unit(mix(key, 40)) >= 0.3) return [];
  const count = 1 + Math.floor(unit(mix(key, 41)) * 4);
  const picked: string[] = [];
  for (let index = 0; index < count; index += 1) {
    picked.push(names[Math.floor(unit(mix(key, 42 + index)) * names.length)]!);
  }
  return picked;
}

function inspectLink(key: number): string {
  const owner = `7656119${8_000_000_000 + (mix(key, 50) % 1_999_999_999)}`;
  const asset = 30_000_000_000 + (mix(key, 51) % 9_000_000_000);
  const d = `${mix(key, 52)}${mix(key, 53)}`;
  return `steam://rungame/730/76561202255233023/+csgo_econ_action_preview%20S${owner}A${asset}D${d}`;
}

function slotKey(imKey: number, slot: number, timeMs: number): number {
  const lifetime = (2 + unit(mix3(imKey, 301, slot)) * 70) * HOUR;
  const offset = unit(mix3(imKey, 302, slot)) * lifetime;
  return mix3(imKey, 303 + slot, Math.floor((timeMs + offset) / lifetime));
}

/** Listings of one item on one market at `timeMs`, priced from the market's best ask. */
export function listingsAt(
  game: SimGame,
  item: SimItem,
  imKey: number,
  timeMs: number,
  askTop: number,
  listingCount: number,
): SimListing[] {
  const count = Math.min(
    listingCount,
    MIN_SLOTS + Math.floor(unit(mix(imKey, 300)) * (MAX_SLOTS - MIN_SLOTS + 1)),
  );
  const shift = mix(imKey, 305) % Math.max(count, 1);
  const listings: SimListing[] = [];
  for (let slot = 0; slot < count; slot += 1) {
    const key = slotKey(imKey, slot, timeMs);
    const band = item.floatBand;
    const stratum = ((slot + shift) % count) + unit(mix(key, 2));
    const floatValue = band === null ? null : band.min + (stratum / count) * (band.max - band.min);
    const doppler = item.dopplers
      ? pickDoppler(item.dopplers, unit(mix(key, 3)), slot === 0)
      : null;
    const lowFloat =
      band === null || floatValue === null ? 0 : (band.max - floatValue) / (band.max - band.min);
    const premium = slot === 0 ? 1 : (1 + 0.008 * slot + 0.05 * lowFloat) * (doppler?.premium ?? 1);
    listings.push({
      id: `${key.toString(36)}${mix(key, 1).toString(36)}`,
      price: Math.max(askTop, Math.round(askTop * premium)),
      floatValue,
      paintSeed: Math.floor(unit(mix(key, 4)) * 1000),
      paintIndex: doppler?.paintIndex ?? item.paintIndex,
      phase: doppler?.phase ?? null,
      inspectLink: inspectLink(key),
      stickers: stickersFor(key, game.stickerNames),
      isStatTrak: item.isStatTrak,
    });
  }
  return listings;
}
