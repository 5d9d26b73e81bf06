/**
 * The game read switch as running servers see it: the set of disabled games, re-read from the
 * store every 250 ms (like API key changes, src/access/access-service.ts), so
 * `pricing games disable rust` takes effect on every server within a second. A failed read
 * keeps the last known set.
 */
import type { Game } from '../domain/games.ts';
import type { GameReads } from './provider.ts';
import type { SchemaStore } from './schema-store.ts';

export const GAME_READS_POLL_MS = 250;

export class PolledGameReads implements GameReads {
  private off = new Set<Game>();
  private timer: ReturnType<typeof setInterval> | null = null;

  constructor(private readonly store: Pick<SchemaStore, 'disabledGames'>) {}

  disabled(game: Game): boolean {
    return this.off.has(game);
  }

  async refreshNow(): Promise<void> {
    this.off = new Set(await this.store.disabledGames());
  }

  start(intervalMs = GAME_READS_POLL_MS, onError: (error: unknown) => void = () => {}): void {
    this.stop();
    this.timer = setInterval(() => void this.refreshNow().catch(onError), intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
