/**
 * Time-to-sell under the queue model. A market's sales arrive as a Poisson process of rate λ
 * units per unit time, and a listing with `ahead` units in front of it sells at the
 * (ahead + 1)-th sale, so its waiting time W is Erlang(a = ahead + 1, λ).
 *
 * λ is not known, only estimated from `units` sold over an observed span S (λ̂ = units / S).
 * Taking that uncertainty into account (a Gamma(units, S) belief about λ), W / S follows the
 * beta-prime distribution BetaPrime(a, units), whose CDF for whole `a` is one minus a negative
 * binomial sum: P(W/S ≤ x) = 1 − Σ_{i<a} C(b+i−1, i) p^b (1−p)^i with p = 1/(1+x), b = units.
 * With plenty of evidence this tends to the plain Erlang quantiles at λ̂; with little it
 * widens them (10 units: the p90 of the first sale is 12% later than the plug-in value).
 *
 * Quantiles are solved exactly by bisection up to EXACT_SHAPE_LIMIT units ahead; above, by
 * Paulson's cube-root normal approximation of the F distribution (BetaPrime(a, b) = (a/b) ·
 * F(2a, 2b)), accurate to well under 1% there.
 * Facts: Erlang / gamma waiting times of a Poisson process; the gamma–Poisson mixture giving
 * the negative binomial and the beta-prime / F relation (any probability text, e.g. Wikipedia
 * "Beta prime distribution"); E. Paulson (1942), Ann. Math. Statist. 13, 233–235.
 */

export const EXACT_SHAPE_LIMIT = 60;

/** Standard normal quantiles of the two probabilities the service reports. */
const NORMAL_QUANTILE: Readonly<Record<number, number>> = { 0.5: 0, 0.9: 1.2815515655446004 };

/** P(W/S ≤ x) for W/S ~ BetaPrime(a, b), `a` whole. */
export function betaPrimeCdf(a: number, b: number, x: number): number {
  if (x <= 0) return 0;
  const ratio = x / (1 + x);
  let term = Math.exp(-b * Math.log1p(x));
  let below = term;
  for (let i = 1; i < a; i += 1) {
    term *= ((b + i - 1) / i) * ratio;
    below += term;
  }
  return 1 - Math.min(1, below);
}

export function exactQuantile(a: number, b: number, q: number): number {
  if (a === 1) return (1 - q) ** (-1 / b) - 1;
  let high = 1;
  while (betaPrimeCdf(a, b, high) < q && high < 1e12) high *= 2;
  let low = 0;
  for (let step = 0; step < 52; step += 1) {
    const mid = (low + high) / 2;
    if (betaPrimeCdf(a, b, mid) < q) low = mid;
    else high = mid;
  }
  return (low + high) / 2;
}

/** Paulson: the q-quantile of F(d1, d2) from the cube-root normal approximation. */
function paulsonF(d1: number, d2: number, q: number): number {
  const z = NORMAL_QUANTILE[q];
  if (z === undefined) throw new Error(`no normal quantile for ${q}`);
  const c1 = 2 / (9 * d1);
  const c2 = 2 / (9 * d2);
  const A = 1 - c2;
  const B = 1 - c1;
  const quadratic = A * A - z * z * c2;
  const root = Math.sqrt(Math.max(0, A * A * B * B - quadratic * (B * B - z * z * c1)));
  return ((A * B + root) / quadratic) ** 3;
}

/** The q-quantile of BetaPrime(a, b): `a` whole ≥ 1, b > 0. */
export function betaPrimeQuantile(a: number, b: number, q: number): number {
  if (!Number.isInteger(a) || a < 1) throw new Error(`shape must be a whole number ≥ 1: ${a}`);
  if (!(b > 0)) throw new Error(`evidence must be positive: ${b}`);
  return a <= EXACT_SHAPE_LIMIT ? exactQuantile(a, b, q) : (a / b) * paulsonF(2 * a, 2 * b, q);
}

export interface QueueTimes {
  medianHours: number;
  p90Hours: number;
}

/**
 * Median and p90 hours to sell with `ahead` units in front, at `unitsPerDay` estimated from
 * `evidenceUnits` sold units (the observed span is evidenceUnits / unitsPerDay days); null
 * without sales.
 */
export function queueTimes(
  ahead: number,
  unitsPerDay: number,
  evidenceUnits: number,
): QueueTimes | null {
  if (!(unitsPerDay > 0) || !(evidenceUnits > 0)) return null;
  const spanHours = (evidenceUnits / unitsPerDay) * 24;
  const a = Math.max(0, Math.round(ahead)) + 1;
  return {
    medianHours: betaPrimeQuantile(a, evidenceUnits, 0.5) * spanHours,
    p90Hours: betaPrimeQuantile(a, evidenceUnits, 0.9) * spanHours,
  };
}
