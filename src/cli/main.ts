/**
 * The `pricing` command: serve, accounts, keys, import, games, markets. Exit code 2 on usage
 * errors (the command line itself is wrong), 1 on failures, 3 from an import that rejected lines
 * or a markets check with a failed market.
 */
import { AdminInputError } from '../access/admin-input.ts';
import { UsageError } from './args.ts';
import { processIo, type CliIo } from './io.ts';

const USAGE = `usage: pricing <command> [options]

commands:
  serve [--role all|api|ingest] [--port 8080] [--host 127.0.0.1] [--data ./data]
        [--source sim|none] [--seed N] [--backfill-days 7] [--backfill-items 150] [--sim-items N]
        [--catalog-items N] [--fx FILE] [--fees FILE] [--log-level info]
        [--database-url URL] [--pg-schema NAME]
        [--redis-url URL] [--redis-prefix P] [--lease-ms 6000]
        [--source live [--markets FILE] [--record DIR [--record-max-mb 256]]]
  accounts create NAME --plan developer|pro|enterprise [--per-minute N] [--monthly N]
                  [--streams N] [--data DIR]
  accounts set NAME [--plan P] [--status active|inactive|expired] [--per-minute N|none]
                    [--monthly N|none] [--streams N|none] [--data DIR]
  accounts list [--json] [--data DIR]
  keys create --account NAME [--trial] [--expires-at ISO] [--allow-ip CIDR,...]... [--data DIR]
  keys revoke KEY_ID [--data DIR]
  keys list [--json] [--data DIR]
  alerts create --account NAME --item NAME --type TYPE --value N --url URL [--markets a,b]
                [--cooldown SECONDS] [--allow-private] [--data DIR]
  alerts list --account NAME [--json] [--data DIR]
  alerts delete ALERT_ID --account NAME [--data DIR]
  import FILE.ndjson [--data DIR]
  games disable|enable GAME [--data DIR]   (/v2 reads of GAME answer 503 while disabled)
  games list [--data DIR]
  games learned [--game cs2|rust] [--json] [--data DIR]   (items learned from steamcommunity)
  markets check [--markets FILE] [--market ID]... [--json] [--fx FILE] [--timeout SECONDS]
        (one round of real requests per enabled live market; exit 3 when one failed)
  replay DIR [--data DIR] [--fx FILE]   (a serve --record recording through ingest into the store)
  replay DIR --to-fixture OUT [--market ID]...   (its newest answers as connector fixtures)

exit codes: 0 done, 1 failed, 2 usage error, 3 import rejected some lines (the rest is stored)
or a checked market failed.
accounts, keys and import also take --database-url URL and --pg-schema NAME (PostgreSQL instead
of the SQLite files under --data); the environment variables DATABASE_URL and REDIS_URL apply too.
`;

/** Admin commands, markets and replay write through `io`; serve uses the process's own. */
type Handler = (argv: string[], io: CliIo) => Promise<number | void>;

const COMMANDS: Record<string, () => Promise<Handler>> = {
  serve: async () => (await import('./serve.ts')).serveCommand,
  accounts: async () => (await import('./accounts.ts')).accountsCommand,
  keys: async () => (await import('./keys.ts')).keysCommand,
  alerts: async () => (await import('./alerts.ts')).alertsCommand,
  import: async () => (await import('./import.ts')).importCommand,
  games: async () => (await import('./games.ts')).gamesCommand,
  markets: async () => (await import('./markets.ts')).marketsCommand,
  replay: async () => (await import('./replay.ts')).replayCommand,
};

/** Runs one `pricing` command line and answers its exit code. */
export async function runPricing(argv: string[], io: CliIo = processIo()): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === 'help' || command === '--help' || command === '-h') {
    io.stdout.write(USAGE);
    return command === undefined ? 2 : 0;
  }
  const load = COMMANDS[command];
  if (!load) {
    io.stderr.write(`pricing: unknown command "${command}"\n\n${USAGE}`);
    return 2;
  }
  try {
    const handler = await load();
    return (await handler(rest, io)) ?? 0;
  } catch (error) {
    if (error instanceof UsageError || error instanceof AdminInputError) {
      io.stderr.write(`pricing ${command}: ${error.message}\n`);
      return 2;
    }
    io.stderr.write(`pricing ${command}: ${(error as Error).message}\n`);
    return 1;
  }
}
