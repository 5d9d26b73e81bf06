/**
 * Which markets this configuration polls, at what cadence, and why the others are not polled,
 * decided once from the configuration alone so the HTTP thread (health cadences and notes) and
 * the ingest side agree: `sim` polls every market on its simulated cadence; `live` polls each
 * enabled connector whose required credentials are set, at the markets file's `pollSeconds` or
 * the connector's own cadence; `none` polls nothing.
 */
import type { ServeConfig } from '../config.ts';
import { MARKET_IDS, type MarketId } from '../domain/markets.ts';
import type { Connector } from '../markets/connector.ts';
import { loadLiveSettings, type LiveSettings } from '../markets/live/markets-file.ts';
import { marketInfo } from '../markets/registry.ts';

export interface PlannedMarket {
  polled: boolean;
  cadenceMs: number;
  /** Why the market is not polled (null when it is). */
  note: string | null;
}

export type MarketPlan = ReadonlyMap<MarketId, PlannedMarket>;

/** The credentials of a connector that are set in `env`, keyed by variable name. */
export function credentialsFor(
  connector: Connector,
  env: NodeJS.ProcessEnv,
): Record<string, string> {
  const values: Record<string, string> = {};
  for (const { env: name } of connector.info.credentials) {
    const value = env[name];
    if (value !== undefined && value !== '') values[name] = value;
  }
  return values;
}

function livePlan(settings: LiveSettings, env: NodeJS.ProcessEnv): Map<MarketId, PlannedMarket> {
  const plan = new Map<MarketId, PlannedMarket>();
  for (const market of MARKET_IDS) {
    const live = settings.markets.get(market);
    const cadenceMs = live?.cadenceMs ?? marketInfo(market).cadenceMs;
    if (!live)
      plan.set(market, { polled: false, cadenceMs, note: 'no live connector (simulated only)' });
    else if (!live.enabled)
      plan.set(market, { polled: false, cadenceMs, note: 'disabled in the markets file' });
    else {
      const credentials = credentialsFor(live.connector, env);
      const missing = live.connector.info.credentials
        .filter((credential) => credential.required && !credentials[credential.env])
        .map((credential) => credential.env);
      const note = missing.length > 0 ? `needs ${missing.join(' and ')} (not set)` : null;
      plan.set(market, { polled: note === null, cadenceMs, note });
    }
  }
  return plan;
}

export function marketPlan(
  config: Pick<ServeConfig, 'source' | 'marketsFile'>,
  env: NodeJS.ProcessEnv = process.env,
): MarketPlan {
  if (config.source === 'live') return livePlan(loadLiveSettings(config.marketsFile), env);
  const polled = config.source === 'sim';
  const note = polled ? null : 'not polled: --source none (serving what the store holds)';
  return new Map(
    MARKET_IDS.map((market) => [market, { polled, cadenceMs: marketInfo(market).cadenceMs, note }]),
  );
}
