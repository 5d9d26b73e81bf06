/**
 * The first start's popular-band backfill survives a stop: a marker file in the data dir holds
 * the band's end (`toMs`) from the moment the band is asked for until it finished, and a start
 * that finds it asks for the band again. Writing the band again is harmless: the simulator
 * gives the same observations for the same seed and end, the store keeps one copy of a sale,
 * and the rollups drop an observation their bucket already counted, so the chunks written
 * before the stop are not counted twice (band-resume.test.ts).
 */
import fs from 'node:fs';
import path from 'node:path';

export const BAND_MARKER_FILE = 'backfill-pending.json';

const markerPath = (dataDir: string) => path.join(dataDir, BAND_MARKER_FILE);

/** The end of a popular band a previous run asked for and did not finish, or null. */
export function pendingBand(dataDir: string): number | null {
  let text: string;
  try {
    text = fs.readFileSync(markerPath(dataDir), 'utf8');
  } catch {
    return null;
  }
  try {
    const toMs = (JSON.parse(text) as { toMs?: unknown }).toMs;
    return Number.isSafeInteger(toMs) ? (toMs as number) : null;
  } catch {
    return null;
  }
}

export function markBandPending(dataDir: string, toMs: number): void {
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(markerPath(dataDir), JSON.stringify({ toMs }));
}

export function clearBandPending(dataDir: string): void {
  fs.rmSync(markerPath(dataDir), { force: true });
}
