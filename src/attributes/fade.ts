/**
 * Fade percentage from the paint seed, by the published algorithm of
 * chescos/csgo-fade-percentage-calculator (src/modules/BaseCalculator.ts, FadeCalculator.ts; MIT):
 * 1. For every seed 0..999 (0..1000 on weapons that also drop from trade-ups: AWP, Glock-18,
 *    MAC-10, MP7, R8 Revolver, UMP-45) seed Valve's uniform random stream (Numerical Recipes
 *    `ran1`, Source SDK `vstdlib/random.cpp` CUniformRandomStream) and draw, in order, the pattern
 *    X offset, Y offset and rotation with RandomFloat(start, end) from the weapon's config:
 *    offsets -0.7..-0.7 and rotation -55..-65 for every Fade weapon, MP7 X -0.9..-0.3 and Y
 *    -0.7..-0.5.
 * 2. raw = |rotation × xOffset| when the X range is not a single value, else |rotation|.
 * 3. The best raw (lowest; highest on the reversed AWP, Karambit and Talon Knife) is 100 %, the
 *    worst is 80 %, linearly between: 80 + 20 × (worst − raw) / (worst − best).
 * Fade weapons: those the calculator lists (knives and guns with the `Fade` finish, gloves
 * excluded); other finishes and weapons have no fade percentage.
 */
const FADE_WEAPONS = new Set([
  'AWP',
  'Bayonet',
  'Bowie Knife',
  'Butterfly Knife',
  'Classic Knife',
  'Falchion Knife',
  'Flip Knife',
  'Glock-18',
  'Gut Knife',
  'Huntsman Knife',
  'Karambit',
  'Kukri Knife',
  'M9 Bayonet',
  'MAC-10',
  'MP7',
  'Navaja Knife',
  'Nomad Knife',
  'Paracord Knife',
  'R8 Revolver',
  'Shadow Daggers',
  'Skeleton Knife',
  'Stiletto Knife',
  'Survival Knife',
  'Talon Knife',
  'UMP-45',
  'Ursus Knife',
]);
const REVERSED = new Set(['AWP', 'Karambit', 'Talon Knife']);
const TRADE_UP = new Set(['AWP', 'Glock-18', 'MAC-10', 'MP7', 'R8 Revolver', 'UMP-45']);

interface PatternConfig {
  x: [number, number];
  y: [number, number];
  rotate: [number, number];
}

const DEFAULT_PATTERN: PatternConfig = { x: [-0.7, -0.7], y: [-0.7, -0.7], rotate: [-55, -65] };
const PATTERNS: Readonly<Record<string, PatternConfig>> = {
  MP7: { x: [-0.9, -0.3], y: [-0.7, -0.5], rotate: [-55, -65] },
};

export const FADE_MIN_PERCENT = 80;

const NTAB = 32;
const IA = 16807;
const IM = 2147483647;
const IQ = 127773;
const IR = 2836;
const NDIV = 1 + Math.floor((IM - 1) / NTAB);
const AM = 1 / IM;
const RNMX = 1 - 1.2e-7;

/** Valve's uniform random stream (ran1 with a 32-entry shuffle table). */
class UniformRandom {
  private idum: number;
  private iy = 0;
  private readonly iv = new Array<number>(NTAB).fill(0);

  constructor(seed: number) {
    this.idum = seed >= 0 ? -seed : seed;
  }

  private step(): void {
    const k = Math.floor(this.idum / IQ);
    this.idum = IA * (this.idum - k * IQ) - IR * k;
    if (this.idum < 0) this.idum += IM;
  }

  private next(): number {
    if (this.idum <= 0 || this.iy === 0) {
      this.idum = -this.idum < 1 ? 1 : -this.idum;
      for (let j = NTAB + 7; j >= 0; j -= 1) {
        this.step();
        if (j < NTAB) this.iv[j] = this.idum;
      }
      this.iy = this.iv[0]!;
    }
    this.step();
    const j = Math.floor(this.iy / NDIV);
    this.iy = this.iv[j]!;
    this.iv[j] = this.idum;
    return this.iy;
  }

  float(low: number, high: number): number {
    return Math.min(AM * this.next(), RNMX) * (high - low) + low;
  }
}

function rawValue(config: PatternConfig, seed: number): number {
  const random = new UniformRandom(seed);
  const xOffset = random.float(config.x[0], config.x[1]);
  random.float(config.y[0], config.y[1]);
  const rotation = random.float(config.rotate[0], config.rotate[1]);
  return Math.abs(config.x[0] !== config.x[1] ? rotation * xOffset : rotation);
}

const tables = new Map<string, Float64Array>();

/** Fade percentage per seed for one weapon (built once, then cached). */
function tableOf(weapon: string): Float64Array {
  const held = tables.get(weapon);
  if (held) return held;
  const config = PATTERNS[weapon] ?? DEFAULT_PATTERN;
  const seeds = TRADE_UP.has(weapon) ? 1001 : 1000;
  const raw = Array.from({ length: seeds }, (_, seed) => rawValue(config, seed));
  const low = Math.min(...raw);
  const high = Math.max(...raw);
  const [best, worst] = REVERSED.has(weapon) ? [high, low] : [low, high];
  const span = 100 - FADE_MIN_PERCENT;
  const table = Float64Array.from(
    raw,
    (value) => FADE_MIN_PERCENT + ((worst - value) / (worst - best)) * span,
  );
  tables.set(weapon, table);
  return table;
}

export function hasFade(weapon: string | undefined, finish: string | undefined): boolean {
  return finish === 'Fade' && weapon !== undefined && FADE_WEAPONS.has(weapon);
}

/** The fade percentage (80..100) of a seed on a Fade weapon; null for other weapons or seeds. */
export function fadePercent(weapon: string, seed: number): number | null {
  if (!FADE_WEAPONS.has(weapon) || !Number.isInteger(seed) || seed < 0) return null;
  const table = tableOf(weapon);
  return seed < table.length ? table[seed]! : null;
}
