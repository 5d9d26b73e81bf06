/**
 * Canonical item ids.
 *
 * Scheme: `<game prefix>_<20 base32 chars>`, e.g. `cs2_k3v…`. The 20 characters are the first
 * 100 bits of SHA-256 over `<game>\n<market hash name>` in lowercase RFC 4648 base32. The id
 * depends only on the game and the exact market hash name, so it is the same across restarts,
 * rebuilds and library upgrades, and a name that ever existed always maps back to the same id
 * (an id is never reused for another item). 100 bits keep accidental collisions practically
 * impossible at catalog sizes (~1e-21 for 40k items); builds still check and throw on one.
 */
import * as crypto from 'node:crypto';
import type { Game } from '../domain/games.ts';

const BASE32_ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';
const ID_CHARS = 20;

export const ID_PREFIX: Readonly<Record<Game, string>> = { cs2: 'cs2', rust: 'rust' };

/** Hex digest; the one-shot `crypto.hash` (Node 20.12+) is several times faster here. */
const sha256Hex: (input: string) => string =
  typeof crypto.hash === 'function'
    ? (input) => crypto.hash('sha256', input, 'hex')
    : (input) => crypto.createHash('sha256').update(input, 'utf8').digest('hex');

export function canonicalId(game: Game, marketHashName: string): string {
  return `${ID_PREFIX[game]}_${base32FromHex(sha256Hex(`${game}\n${marketHashName}`), ID_CHARS)}`;
}

export function isCanonicalIdShape(value: string): boolean {
  return /^(cs2|rust)_[a-z2-7]{20}$/.test(value);
}

/** Base32 of the leading bits: 5 hex digits (20 bits) → 4 characters at a time. */
function base32FromHex(hex: string, chars: number): string {
  let out = '';
  for (let offset = 0; out.length < chars; offset += 5) {
    const group = parseInt(hex.slice(offset, offset + 5), 16);
    for (let shift = 15; shift >= 0; shift -= 5) out += BASE32_ALPHABET[(group >>> shift) & 31];
  }
  return out.slice(0, chars);
}
