/**
 * A serialized latest-state body as a template: the bytes around each `"calculatedAt":"…"`
 * value, so one build answers every request until the body would change, with the request's
 * own `calculatedAt` written into the holes. Also finds how long a built body stays right.
 *
 * Why the split is safe: in JSON a `"` inside a string value is written `\"`, so the unescaped
 * text `"calculatedAt":"` can only be a key of the serialized object itself.
 */
import { iso } from '../../domain/clock.ts';

const CALCULATED_AT = '"calculatedAt":"';
/** `new Date(ms).toISOString()` for any time this service sees: always 24 ASCII characters. */
export const ISO_LENGTH = 24;

export interface BodyTemplate {
  /** The body's bytes between the calculatedAt holes (holes = pieces − 1). */
  pieces: readonly Buffer[];
  /** Length of the rendered body in bytes. */
  length: number;
}

/** The pieces of `json` around every calculatedAt value equal to `calculatedAt`. */
export function splitAtCalculatedAt(json: string, calculatedAt: string): string[] {
  return json.split(`${CALCULATED_AT}${calculatedAt}"`).map((piece, index, all) => {
    const open = index < all.length - 1 ? CALCULATED_AT : '';
    const close = index > 0 ? '"' : '';
    return `${close}${piece}${open}`;
  });
}

export function toTemplate(json: string, calculatedAt: string): BodyTemplate {
  const pieces = splitAtCalculatedAt(json, calculatedAt).map((piece) => Buffer.from(piece));
  const fixed = pieces.reduce((total, piece) => total + piece.length, 0);
  return { pieces, length: fixed + (pieces.length - 1) * ISO_LENGTH };
}

/** The body with `calculatedAt` (an ISO_LENGTH ASCII string) in every hole. */
export function renderTemplate(template: BodyTemplate, calculatedAt: string): Buffer {
  const out = Buffer.allocUnsafe(template.length);
  let offset = 0;
  const { pieces } = template;
  for (let index = 0; index < pieces.length; index += 1) {
    if (index > 0) offset += out.write(calculatedAt, offset, ISO_LENGTH, 'latin1');
    offset += pieces[index]!.copy(out, offset);
  }
  return out;
}

/** The serialized body at `now`, as a function of time (the route's compute + serializer). */
export type BodyAt = (now: number) => string;

/** What a body looks like with its calculatedAt values left out: equal means same bytes. */
export function fingerprint(bodyAt: BodyAt, now: number): string {
  return splitAtCalculatedAt(bodyAt(now), iso(now)).join('\u0000');
}

/**
 * The first ms after `builtAt` at which the body (calculatedAt aside) differs, at most
 * `horizon`. `horizon` is a moment the caller knows the body may change at (the next staleness
 * flip), so it is not evaluated. Between flips every time-dependent figure of these bodies
 * (confidence, executable confidence) only moves one way, so the moments with the same body as
 * `builtAt` form one interval and a bisection finds its end exactly.
 */
export function sameBodyUntil(bodyAt: BodyAt, builtAt: number, horizon: number): number {
  const base = fingerprint(bodyAt, builtAt);
  if (horizon <= builtAt + 1 || fingerprint(bodyAt, horizon - 1) === base) return horizon;
  let same = builtAt;
  let differs = horizon - 1;
  while (differs - same > 1) {
    const middle = same + Math.floor((differs - same) / 2);
    if (fingerprint(bodyAt, middle) === base) same = middle;
    else differs = middle;
  }
  return differs;
}
