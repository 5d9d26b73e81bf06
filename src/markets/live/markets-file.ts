/**
 * The live sources' settings: `--markets FILE`, JSON of the shape `{"markets": {"<market id>":
 * {"enabled", "baseUrl", "pollSeconds", "timeoutSeconds"}}, "fx": {"url"}}`, every
 * field optional, merged over each connector's defaults. Every market id accepts
 * `{"enabled": false}`; unknown ids, anything else for an id without a live connector, unknown
 * fields and out-of-range values stop the server at boot with one message listing every problem. Credentials never come from this file: only from the environment.
 */
import { readFileSync } from 'node:fs';
import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { SECOND } from '../../domain/clock.ts';
import { isMarketId, MARKET_IDS, type MarketId } from '../../domain/markets.ts';
import { ECB_DAILY_URL } from '../ecb/fx-ecb.ts';
import type { Connector } from '../connector.ts';
import { LIVE_CONNECTORS } from '../connectors.ts';

const HttpUrl = Type.String({ pattern: '^https?://[^\\s]+$' });

const MarketEntry = Type.Object(
  {
    enabled: Type.Optional(Type.Boolean()),
    baseUrl: Type.Optional(HttpUrl),
    pollSeconds: Type.Optional(Type.Integer({ minimum: 10, maximum: 86_400 })),
    timeoutSeconds: Type.Optional(Type.Integer({ minimum: 1, maximum: 300 })),
  },
  { additionalProperties: false },
);

export const MarketsFileSchema = Type.Object(
  {
    markets: Type.Optional(Type.Record(Type.String(), MarketEntry)),
    fx: Type.Optional(
      Type.Object({ url: Type.Optional(HttpUrl) }, { additionalProperties: false }),
    ),
  },
  { additionalProperties: false },
);
export type MarketsFile = Static<typeof MarketsFileSchema>;

export interface LiveMarket {
  connector: Connector;
  enabled: boolean;
  baseUrl: string;
  cadenceMs: number;
  /** Replaces every request's own timeout when set. */
  timeoutMs: number | null;
}

export interface LiveSettings {
  markets: ReadonlyMap<MarketId, LiveMarket>;
  fxUrl: string;
}

export class MarketsFileError extends Error {}

function schemaProblems(value: unknown): string[] {
  return [...Value.Errors(MarketsFileSchema, value)].map(
    (error) => `${error.path || '/'}: ${error.message}`,
  );
}

function idProblems(file: MarketsFile): string[] {
  const live = new Set(LIVE_CONNECTORS.map((connector) => connector.info.id));
  return Object.keys(file.markets ?? {}).flatMap((id) => {
    if (!isMarketId(id))
      return [`/markets/${id}: unknown market id (known: ${MARKET_IDS.join(', ')})`];
    if (live.has(id)) return [];
    const entry = file.markets![id]!;
    const offOnly = entry.enabled === false && Object.keys(entry).length === 1;
    return offOnly
      ? []
      : [
          `/markets/${id}: has no live connector (it is simulated only); only {"enabled": false} is accepted for it`,
        ];
  });
}

/** Settings from a parsed file (or none): every connector, with the file's overrides. */
export function liveSettings(file: unknown, origin = 'markets file'): LiveSettings {
  const document = file ?? {};
  const problems = schemaProblems(document);
  if (problems.length === 0) problems.push(...idProblems(document as MarketsFile));
  if (problems.length > 0) throw new MarketsFileError(`${origin}: ${problems.join('; ')}`);
  const parsed = document as MarketsFile;
  const markets = new Map<MarketId, LiveMarket>();
  for (const connector of LIVE_CONNECTORS) {
    const entry = parsed.markets?.[connector.info.id] ?? {};
    markets.set(connector.info.id, {
      connector,
      enabled: entry.enabled ?? true,
      baseUrl: entry.baseUrl ?? connector.info.baseUrl,
      cadenceMs:
        entry.pollSeconds === undefined ? connector.info.cadenceMs : entry.pollSeconds * SECOND,
      timeoutMs: entry.timeoutSeconds === undefined ? null : entry.timeoutSeconds * SECOND,
    });
  }
  return { markets, fxUrl: parsed.fx?.url ?? ECB_DAILY_URL };
}

/** Reads and validates `--markets FILE`; null path means the connectors' defaults. */
export function loadLiveSettings(path: string | null): LiveSettings {
  if (path === null) return liveSettings(undefined);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new MarketsFileError(`markets file ${path}: cannot read (${(error as Error).message})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new MarketsFileError(`markets file ${path}: invalid JSON (${(error as Error).message})`);
  }
  return liveSettings(json, `markets file ${path}`);
}
