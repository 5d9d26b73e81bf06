/**
 * Change-feed cursors: opaque, tamper-evident and bound to their game. A cursor carries the
 * game, the sync's `since` and upper bound, and the keyset position of the last item served,
 * as base64url JSON followed by an HMAC-SHA256 tag (first 16 bytes) under the deployment's
 * secret (kept in the store, so every process and every restart accepts the same cursors).
 * Any edited byte, a cursor from another deployment or one from another game is refused.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Game } from '../domain/games.ts';
import { isGame } from '../domain/games.ts';
import type { Position } from './change-log.ts';

export interface CursorState {
  game: Game;
  since: number;
  upper: number;
  after: Position;
}

export type CursorProblem = 'malformed' | 'tampered' | 'other_game';

const TAG_BYTES = 16;

function tag(secret: Buffer, body: string): Buffer {
  return createHmac('sha256', secret).update(body).digest().subarray(0, TAG_BYTES);
}

export function encodeCursor(secret: Buffer, state: CursorState): string {
  const wire = [state.game, state.since, state.upper, state.after.version, state.after.id];
  const body = Buffer.from(JSON.stringify(wire)).toString('base64url');
  return `${body}.${tag(secret, body).toString('base64url')}`;
}

export function decodeCursor(
  secret: Buffer,
  cursor: string,
  game: Game,
): CursorState | CursorProblem {
  const [body, signature, extra] = cursor.split('.');
  if (!body || !signature || extra !== undefined) return 'malformed';
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== TAG_BYTES || !timingSafeEqual(given, tag(secret, body))) return 'tampered';
  const state = parseWire(Buffer.from(body, 'base64url').toString('utf8'));
  if (!state) return 'malformed';
  return state.game === game ? state : 'other_game';
}

function parseWire(text: string): CursorState | null {
  let wire: unknown;
  try {
    wire = JSON.parse(text);
  } catch {
    return null;
  }
  if (!Array.isArray(wire) || wire.length !== 5) return null;
  const [game, since, upper, version, id] = wire as unknown[];
  const integers = [since, upper, version].every((value) => Number.isSafeInteger(value));
  if (!isGame(game) || !integers || typeof id !== 'string') return null;
  return {
    game,
    since: since as number,
    upper: upper as number,
    after: { version: version as number, id },
  };
}
