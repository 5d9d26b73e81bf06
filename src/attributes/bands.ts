/**
 * Float bands: the five CS2 exteriors and the two band layouts buckets use.
 * - Exteriors (wear ranges FN [0, 0.07), MW [0.07, 0.15), FT [0.15, 0.38), WW [0.38, 0.45),
 *   BS [0.45, 1]): ../shared/reference/markets.md, "Naming".
 * - Buff163's preset `min_paintwear`/`max_paintwear` bands per exterior, from
 *   truongdatnhan/Buff163_Check_Price_DEMO:Buff163_Check_Price/ViewModels/ItemViewModel.cs as
 *   cited in markets.md. That source stops Battle-Scarred at 0.85; we close the exterior with a
 *   0.85-1.00 band of our own so every float has a band.
 * - Every other bucket-supplying market: uniform 0.01 bins clamped to the exterior.
 * Bands are half-open [min, max) and never cross an exterior boundary; a float of exactly 1
 * falls in the last band. Bounds are hundredths, compared against k / 100 (the nearest double
 * to the decimal, the same value as the literal) so 0.07 is MW and 0.0699 is FN.
 */
export const EXTERIORS = [
  { name: 'Factory New', short: 'FN', min: 0, max: 0.07 },
  { name: 'Minimal Wear', short: 'MW', min: 0.07, max: 0.15 },
  { name: 'Field-Tested', short: 'FT', min: 0.15, max: 0.38 },
  { name: 'Well-Worn', short: 'WW', min: 0.38, max: 0.45 },
  { name: 'Battle-Scarred', short: 'BS', min: 0.45, max: 1 },
] as const;

export type Exterior = (typeof EXTERIORS)[number];
export type BandLayout = 'buff163' | 'uniform';

export interface FloatBand {
  min: number;
  max: number;
}

/** Inner edges (hundredths) of Buff163's preset bands, per exterior in EXTERIORS order. */
const BUFF163_EDGES: readonly (readonly number[])[] = [
  [1, 2, 3, 4],
  [8, 9, 10, 11],
  [18, 21, 24, 27],
  [39, 40, 41, 42],
  [50, 63, 76, 85],
];

const hundredths = (value: number): number => Math.round(value * 100);

export function exteriorOf(float: number): Exterior {
  for (const exterior of EXTERIORS) if (float < exterior.max) return exterior;
  return EXTERIORS[EXTERIORS.length - 1]!;
}

/** Every band of one exterior under a layout, lowest first. */
export function bandsOf(layout: BandLayout, exterior: Exterior): FloatBand[] {
  const from = hundredths(exterior.min);
  const to = hundredths(exterior.max);
  const inner =
    layout === 'buff163'
      ? BUFF163_EDGES[EXTERIORS.indexOf(exterior)]!
      : Array.from({ length: to - from - 1 }, (_, index) => from + index + 1);
  const edges = [from, ...inner, to];
  return edges.slice(1).map((edge, index) => ({ min: edges[index]! / 100, max: edge / 100 }));
}

const BAND_TABLES: Readonly<Record<BandLayout, readonly FloatBand[][]>> = {
  buff163: EXTERIORS.map((exterior) => bandsOf('buff163', exterior)),
  uniform: EXTERIORS.map((exterior) => bandsOf('uniform', exterior)),
};

/** The one band of `layout` that holds `float` (a float in [0, 1]). */
export function bandOf(layout: BandLayout, float: number): FloatBand {
  const exterior = exteriorOf(float);
  const bands = BAND_TABLES[layout][EXTERIORS.indexOf(exterior)]!;
  if (layout === 'uniform') {
    const index = Math.floor(float * 100) - hundredths(exterior.min);
    const guess = Math.min(Math.max(index, 0), bands.length - 1);
    return settle(bands, guess, float);
  }
  return settle(bands, 0, float);
}

/** From a guess, the band whose [min, max) holds the float (the last band also takes max). */
function settle(bands: readonly FloatBand[], guess: number, float: number): FloatBand {
  let index = guess;
  while (index > 0 && float < bands[index]!.min) index -= 1;
  while (index < bands.length - 1 && float >= bands[index]!.max) index += 1;
  return bands[index]!;
}

/** The layout a market's float buckets use. */
export function layoutOf(market: string): BandLayout {
  return market === 'buff163' ? 'buff163' : 'uniform';
}

/** `0.15-0.18`: the bucket-key form of a band (shortest decimals). */
export function bandLabel(band: FloatBand): string {
  return `${band.min}-${band.max}`;
}
