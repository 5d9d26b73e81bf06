/**
 * The item schema's tables, appended to the price store's migrations (SQLite and PostgreSQL):
 * - `schema_changes`: the append-only log of item versions per game (an item's newest row is
 *   its current record; a `removed` row is a removal that keeps the item resolvable by id);
 * - `schema_meta`: the change-feed cursor secret (one per deployment);
 * - `game_reads`: the operator's game read switch (`pricing games disable|enable <game>`).
 * A record is stored as the JSON text it was written as (TEXT, not JSONB, which reorders keys), so
 * every process serializes the same snapshot bytes and sends the same ETag.
 */
export const SQLITE_SCHEMA_TABLES = `
CREATE TABLE schema_changes (
  game TEXT NOT NULL,
  version INTEGER NOT NULL,
  item_id TEXT NOT NULL,
  hash TEXT NOT NULL,
  source TEXT NOT NULL CHECK (source IN ('catalog', 'learned')),
  removed INTEGER NOT NULL CHECK (removed IN (0, 1)),
  record TEXT NOT NULL,
  PRIMARY KEY (game, version, item_id)
) STRICT;

CREATE TABLE schema_meta (
  key TEXT PRIMARY KEY,
  value BLOB NOT NULL
) STRICT;

CREATE TABLE game_reads (
  game TEXT PRIMARY KEY,
  disabled INTEGER NOT NULL CHECK (disabled IN (0, 1)),
  changed_at INTEGER NOT NULL
) STRICT;
`;

export const POSTGRES_SCHEMA_TABLES = `
CREATE TABLE schema_changes (
  game TEXT NOT NULL,
  version epoch_ms NOT NULL,
  item_id TEXT NOT NULL,
  hash TEXT NOT NULL,
  source TEXT NOT NULL CHECK (source IN ('catalog', 'learned')),
  removed BOOLEAN NOT NULL,
  record TEXT NOT NULL,
  PRIMARY KEY (game, version, item_id)
);

CREATE TABLE schema_meta (
  key TEXT PRIMARY KEY,
  value BYTEA NOT NULL
);

CREATE TABLE game_reads (
  game TEXT PRIMARY KEY,
  disabled BOOLEAN NOT NULL,
  changed_at epoch_ms NOT NULL
);
`;
