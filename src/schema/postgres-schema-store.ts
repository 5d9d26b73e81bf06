/**
 * The schema store in PostgreSQL, beside the price store's tables (same schema, same migration
 * ledger). A sync holds a transaction-scoped advisory lock per game, so processes booting at
 * once append each change exactly once; the others read it back as `newer`.
 */
import { randomBytes } from 'node:crypto';
import type { Game } from '../domain/games.ts';
import { createPool, inTransaction } from '../store/postgres/driver.ts';
import type { Pool, PostgresConnectionOptions, Queryable } from '../store/postgres/driver.ts';
import { migrate } from '../store/postgres/migrate.ts';
import { PRICE_LEDGER, PRICE_MIGRATIONS } from '../store/postgres/migrations.ts';
import type { LogEntry } from './change-log.ts';
import { entryFromRow, type LogRow, type SchemaStore } from './schema-store.ts';

export interface PostgresSchemaStoreOptions extends PostgresConnectionOptions {
  now: () => number;
}

const INSERT_CHUNK = 1000;

async function after(client: Queryable, game: Game, version: number): Promise<LogEntry[]> {
  const result = await client.query<LogRow>(
    `SELECT version, item_id, hash, source, removed, record FROM schema_changes
     WHERE game = $1 AND version > $2 ORDER BY version, item_id`,
    [game, version],
  );
  return result.rows.map(entryFromRow);
}

async function insertAll(client: Queryable, game: Game, entries: readonly LogEntry[]) {
  for (let start = 0; start < entries.length; start += INSERT_CHUNK) {
    const chunk = entries.slice(start, start + INSERT_CHUNK);
    await client.query(
      `INSERT INTO schema_changes (game, version, item_id, hash, source, removed, record)
       SELECT $1, * FROM unnest($2::bigint[], $3::text[], $4::text[], $5::text[], $6::boolean[], $7::text[])`,
      [
        game,
        chunk.map((entry) => entry.version),
        chunk.map((entry) => entry.id),
        chunk.map((entry) => entry.hash),
        chunk.map((entry) => entry.source),
        chunk.map((entry) => entry.removed),
        chunk.map((entry) => JSON.stringify(entry.record)),
      ],
    );
  }
}

export function createPostgresSchemaStore(options: PostgresSchemaStoreOptions): SchemaStore {
  const pool: Pool = createPool(options);
  return {
    async init() {
      await migrate(pool, {
        ledger: PRICE_LEDGER,
        migrations: PRICE_MIGRATIONS,
        ...(options.schema === undefined ? {} : { schema: options.schema }),
        now: options.now,
      });
    },
    close: () => pool.end(),
    entriesAfter: (game, version) => after(pool, game, version),
    sync(game, knownHead, plan) {
      return inTransaction(pool, async (client) => {
        await client.query("SELECT pg_advisory_xact_lock(hashtext('schema_changes:' || $1))", [
          game,
        ]);
        const newer = await after(client, game, knownHead);
        const appended = plan(newer);
        await insertAll(client, game, appended);
        return { newer, appended };
      });
    },
    async cursorSecret() {
      await pool.query(
        "INSERT INTO schema_meta (key, value) VALUES ('cursor_secret', $1) ON CONFLICT (key) DO NOTHING",
        [randomBytes(32)],
      );
      const result = await pool.query<{ value: Buffer }>(
        "SELECT value FROM schema_meta WHERE key = 'cursor_secret'",
      );
      return result.rows[0]!.value;
    },
    async disabledGames() {
      const result = await pool.query<{ game: Game }>(
        'SELECT game FROM game_reads WHERE disabled ORDER BY game',
      );
      return result.rows.map((row) => row.game);
    },
    async setGameReads(game, enabled, now) {
      await pool.query(
        `INSERT INTO game_reads (game, disabled, changed_at) VALUES ($1, $2, $3)
         ON CONFLICT (game) DO UPDATE SET disabled = EXCLUDED.disabled, changed_at = EXCLUDED.changed_at`,
        [game, !enabled, now],
      );
    },
  };
}
