/**
 * The PostgreSQL connection layer shared by the PostgreSQL stores: a `pg` Pool that fails fast
 * when the server is unreachable, pins every connection to one schema, and reads BIGINT as a
 * JS number (every BIGINT column is CHECKed to the safe-integer range, so this is exact).
 *
 * The project has no @types/pg, so `pg` is loaded through createRequire and described by the
 * few interfaces below (only what these stores use).
 */
import { createRequire } from 'node:module';

export interface QueryResult<Row> {
  rows: Row[];
  rowCount: number | null;
}

export interface QueryConfig {
  /** Prepared once per connection under this name, then reused. */
  name?: string;
  text: string;
  values?: unknown[];
  /** 'array': each row is an array in column order (cheaper than objects for bulk reads). */
  rowMode?: 'array';
}

export interface Queryable {
  query<Row = Record<string, unknown>>(
    query: string | QueryConfig,
    values?: unknown[],
  ): Promise<QueryResult<Row>>;
}

export interface PoolClient extends Queryable {
  /** Pass an error to destroy the connection instead of returning it to the pool. */
  release(destroy?: Error | boolean): void;
}

export interface Pool extends Queryable {
  connect(): Promise<PoolClient>;
  end(): Promise<void>;
  on(event: 'error', listener: (error: Error) => void): Pool;
  on(event: 'connect', listener: (client: ClientEvents) => void): Pool;
}

interface ClientEvents {
  on(event: 'error', listener: (error: Error) => void): unknown;
}

type TypeParser = (text: string) => unknown;

interface PgModule {
  Pool: new (config: Record<string, unknown>) => Pool;
  types: { getTypeParser(oid: number, format?: string): TypeParser };
}

const pg = createRequire(import.meta.url)('pg') as PgModule;

const INT8_OID = 20;
export const DEFAULT_POOL_SIZE = 10;
/** A connection attempt gives up after this long, so callers see an outage within 2 s. */
export const CONNECT_TIMEOUT_MS = 2000;
const IDLE_TIMEOUT_MS = 30_000;
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

export interface PostgresConnectionOptions {
  /** e.g. postgres://user@host:5432/db (DATABASE_URL). */
  connectionString: string;
  /** Schema holding the tables (created by init if missing); default: the server's search_path. */
  schema?: string;
  /** Most connections this pool opens (default 10). */
  poolSize?: number;
  /** Longest wait to connect, or for a free pooled connection (default 2 s). */
  connectionTimeoutMillis?: number;
  /** Connections kept open while idle (default 0): a standby's pool stays warm. */
  minConnections?: number;
  /**
   * A pooled connection failed outside a query (e.g. the server restarted); default: ignored,
   * since the next query on it fails with an error isUnavailableError() recognises.
   */
  onIdleError?: (error: Error) => void;
}

export function assertSchemaName(schema: string): string {
  if (!SCHEMA_NAME.test(schema)) {
    throw new Error(`invalid schema name "${schema}": use lower-case letters, digits and _`);
  }
  return schema;
}

function parseInt8(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value)) throw new RangeError(`BIGINT ${text} is not a safe integer`);
  return value;
}

const typeParsers = {
  getTypeParser(oid: number, format?: string): TypeParser {
    return oid === INT8_OID && format !== 'binary'
      ? parseInt8
      : pg.types.getTypeParser(oid, format);
  },
};

export function createPool(options: PostgresConnectionOptions): Pool {
  const schema = options.schema === undefined ? undefined : assertSchemaName(options.schema);
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.poolSize ?? DEFAULT_POOL_SIZE,
    min: options.minConnections ?? 0,
    connectionTimeoutMillis: options.connectionTimeoutMillis ?? CONNECT_TIMEOUT_MS,
    idleTimeoutMillis: IDLE_TIMEOUT_MS,
    keepAlive: true,
    application_name: 'pricing',
    types: typeParsers,
    ...(schema === undefined ? {} : { options: `-c search_path=${schema}` }),
  });
  const onIdleError = options.onIdleError ?? (() => {});
  pool.on('error', onIdleError);
  // pg emits 'error' on a checked-out client whose server goes away between queries; with no
  // listener that event would crash the process.
  pool.on('connect', (client) => client.on('error', onIdleError));
  return pool;
}

/** Opens `count` pooled connections now (they stay open up to the pool's `min`). */
export async function warmPool(pool: Pool, count: number): Promise<void> {
  const clients = await Promise.all(Array.from({ length: count }, () => pool.connect()));
  for (const client of clients) client.release();
}

/**
 * Runs `work` inside BEGIN … COMMIT on one pooled connection; rolls back and rethrows on any
 * error. A connection that failed mid-transaction is destroyed rather than reused.
 */
export async function inTransaction<T>(
  pool: Pool,
  work: (client: PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    client.release();
    return result;
  } catch (error) {
    const rolledBack = await client.query('ROLLBACK').then(
      () => true,
      () => false,
    );
    client.release(!rolledBack);
    throw error;
  }
}
