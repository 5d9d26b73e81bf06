/**
 * The terminal's keyless gate: the per-client-IP limit (access/ip-gate.ts) on the terminal's
 * own JSON routes (default 120 requests a minute, `--terminal-per-minute`), keyed
 * `terminal:ip:<address>` so browsing never eats the health allowance.
 */
import type { FastifyRequest } from 'fastify';
import { ipGate } from '../access/ip-gate.ts';
import type { Game } from '../domain/games.ts';
import type { AppDeps } from '../http/deps.ts';
import { gameFromQuery } from '../http/plugins/key-gate.ts';

export const DEFAULT_TERMINAL_PER_MINUTE = 120;

export function terminalPerMinute(deps: AppDeps): number {
  return deps.terminalPerMinute ?? DEFAULT_TERMINAL_PER_MINUTE;
}

/** onRequest hook: the per-IP limit, then the `game` query parameter (400 when missing). */
export function terminalGate(deps: AppDeps, options: { game: boolean }) {
  const allow = ipGate({
    limiter: deps.healthLimiter,
    clock: deps.clock,
    perMinute: terminalPerMinute(deps),
    scope: 'terminal:',
    what: 'terminal',
  });
  return async (request: FastifyRequest): Promise<void> => {
    await allow(request.ip);
    request.game = options.game ? gameFromQuery(request) : ('cs2' satisfies Game);
  };
}
