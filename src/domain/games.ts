/** The two games the service prices. `/v1` is always cs2; `/v2` takes `game`. */
export const GAMES = ['cs2', 'rust'] as const;
export type Game = (typeof GAMES)[number];

export function isGame(value: unknown): value is Game {
  return value === 'cs2' || value === 'rust';
}
