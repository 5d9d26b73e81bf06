/**
 * A catalog that grows with the market (issue: no maintained item-data package for Rust, and new
 * CS2 items ship before packages update). A name the naming authority lists and the catalog
 * lacks becomes a learned schema item (its own version and change-feed entry; priceable from
 * the next poll on). The authority is the Steam Community Market (`steamcommunity`, the
 * wallet-credit market whose `market_hash_name` is every market's naming source, see
 * shared/reference/markets.md). Names seen only on other markets stay unmapped: the fetch
 * records count them (`unmappedCount`, the market-latency report's `unmapped_rate`) and this
 * learner tallies them by name.
 */
import type { Game } from '../domain/games.ts';
import type { MarketId } from '../domain/markets.ts';
import { cleanItemName } from '../catalog/resolve-item.ts';

export const NAMING_AUTHORITY: MarketId = 'steamcommunity';

/** Distinct unmapped names remembered per game (the tally stops growing beyond). */
const MAX_TALLIED_NAMES = 10_000;

export interface LearnPort {
  learn(game: Game, marketHashName: string, market: string): Promise<boolean>;
}

export class CatalogLearner {
  private readonly tried = new Set<string>();
  private readonly unmapped = new Map<Game, Map<string, number>>();

  constructor(
    private readonly port: LearnPort,
    private readonly onError: (error: unknown) => void = () => {},
  ) {}

  /** Names a market listed that no catalog item matched (runner's `onUnmapped`). */
  notice(market: MarketId, game: Game, names: readonly string[]): Promise<void> {
    if (market !== NAMING_AUTHORITY) {
      for (const name of names) this.tally(game, cleanItemName(name));
      return Promise.resolve();
    }
    const learning = names.map(cleanItemName).flatMap((name) => {
      const key = `${game}\n${name}`;
      if (name === '' || this.tried.has(key)) return [];
      this.tried.add(key);
      const learned = this.port.learn(game, name, market).catch((error: unknown) => {
        this.tried.delete(key);
        this.onError(error);
      });
      return [learned];
    });
    return Promise.all(learning).then(() => undefined);
  }

  /** Unmapped names from other markets and how often they were seen. */
  unmappedNames(game: Game): ReadonlyMap<string, number> {
    return this.unmapped.get(game) ?? new Map();
  }

  private tally(game: Game, name: string): void {
    let names = this.unmapped.get(game);
    if (!names) this.unmapped.set(game, (names = new Map()));
    const count = names.get(name);
    if (count !== undefined) names.set(name, count + 1);
    else if (names.size < MAX_TALLIED_NAMES) names.set(name, 1);
  }
}
