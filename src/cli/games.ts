/**
 * `pricing games disable|enable <game>` and `pricing games list`: the game read switch. While a
 * game is disabled, `/v2` reads of it answer 503 with Retry-After (after auth and plan checks);
 * running servers re-read the switch every 250 ms, so a change takes effect within a second.
 * `pricing games learned [--game G] [--json]` lists the items learned from the naming
 * authority, for review.
 */
import { systemClock } from '../domain/clock.ts';
import { GAMES, isGame, type Game } from '../domain/games.ts';
import { withSchemaStore } from '../boot/open-schema-store.ts';
import {
  parseCommandArgs,
  requirePositional,
  STORE_OPTIONS,
  storeConfigFrom,
  UsageError,
} from './args.ts';
import { printLine, type CliIo } from './io.ts';

function gameArgument(positionals: string[]): Game {
  const game = requirePositional(positionals, 0, 'GAME');
  if (!isGame(game)) throw new UsageError(`GAME must be one of: ${GAMES.join(', ')}`);
  return game;
}

function switchTo(enabled: boolean) {
  return async (argv: string[], io: CliIo): Promise<void> => {
    const { values, positionals } = parseCommandArgs(argv, STORE_OPTIONS, 1);
    const game = gameArgument(positionals);
    await withSchemaStore(storeConfigFrom(values, io.env), systemClock, (store) =>
      store.setGameReads(game, enabled, systemClock.now()),
    );
    printLine(io, `${game} reads ${enabled ? 'enabled' : 'disabled'}`);
  };
}

async function list(argv: string[], io: CliIo): Promise<void> {
  const { values } = parseCommandArgs(argv, STORE_OPTIONS);
  const config = storeConfigFrom(values, io.env);
  const off = await withSchemaStore(config, systemClock, (store) => store.disabledGames());
  for (const game of GAMES) {
    printLine(io, `${game}\t${off.includes(game) ? 'disabled' : 'enabled'}`);
  }
}

async function learned(argv: string[], io: CliIo): Promise<void> {
  const { values } = parseCommandArgs(argv, {
    ...STORE_OPTIONS,
    game: { type: 'string' },
    json: { type: 'boolean' },
  });
  if (values.game !== undefined && !isGame(values.game)) {
    throw new UsageError(`--game must be one of: ${GAMES.join(', ')}`);
  }
  const games = values.game ? [values.game as Game] : [...GAMES];
  const config = storeConfigFrom(values, io.env);
  const rows = await withSchemaStore(config, systemClock, async (store) => {
    const found = [];
    for (const game of games) {
      const latest = new Map((await store.entriesAfter(game, 0)).map((entry) => [entry.id, entry]));
      for (const entry of latest.values()) {
        if (entry.source !== 'learned' || entry.removed) continue;
        const { id, marketHashName, learnedFrom } = entry.record;
        found.push({
          game,
          id,
          marketHashName,
          learnedFrom,
          learnedAt: new Date(entry.version).toISOString(),
        });
      }
    }
    return found;
  });
  if (values.json) return printLine(io, JSON.stringify(rows));
  printLine(io, ['game', 'id', 'learnedAt', 'from', 'name'].join('\t'));
  for (const row of rows) {
    printLine(
      io,
      [row.game, row.id, row.learnedAt, row.learnedFrom ?? '-', row.marketHashName].join('\t'),
    );
  }
}

const SUBCOMMANDS: Record<string, (argv: string[], io: CliIo) => Promise<void>> = {
  disable: switchTo(false),
  enable: switchTo(true),
  list,
  learned,
};

export async function gamesCommand(argv: string[], io: CliIo): Promise<void> {
  const [sub, ...rest] = argv;
  const run = sub ? SUBCOMMANDS[sub] : undefined;
  if (!run) throw new UsageError('expected: games disable|enable GAME, games list, games learned');
  await run(rest, io);
}
