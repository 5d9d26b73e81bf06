/**
 * CS2 exteriors and their float bands: FN [0, 0.07), MW [0.07, 0.15), FT [0.15, 0.38),
 * WW [0.38, 0.45), BS [0.45, 1]. A skin with float range [min, max) has an exterior when the
 * two ranges overlap.
 */
export interface Exterior {
  readonly code: 'FN' | 'MW' | 'FT' | 'WW' | 'BS';
  readonly name: string;
  readonly min: number;
  readonly max: number;
}

export const EXTERIORS: readonly Exterior[] = [
  { code: 'FN', name: 'Factory New', min: 0, max: 0.07 },
  { code: 'MW', name: 'Minimal Wear', min: 0.07, max: 0.15 },
  { code: 'FT', name: 'Field-Tested', min: 0.15, max: 0.38 },
  { code: 'WW', name: 'Well-Worn', min: 0.38, max: 0.45 },
  { code: 'BS', name: 'Battle-Scarred', min: 0.45, max: 1 },
];

export function exteriorsFor(floatMin: number, floatMax: number): Exterior[] {
  return EXTERIORS.filter((exterior) => {
    const upper = exterior.code === 'BS' ? Number.POSITIVE_INFINITY : exterior.max;
    return floatMin < upper && floatMax > exterior.min;
  });
}

export function exteriorByName(name: string): Exterior | undefined {
  return EXTERIORS.find((exterior) => exterior.name === name);
}
