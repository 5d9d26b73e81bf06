/**
 * Loopback stand-ins for a set of live markets plus the ECB rate source, and the markets file
 * that points `pricing serve --source live` at them: what the end-to-end test, the benchmark
 * and `scripts/stand-ins.ts` (live mode without network) run against.
 */
import { writeFileSync } from 'node:fs';
import type { MarketId } from '../../domain/markets.ts';
import { ECB_SAMPLE } from '../ecb/test-ecb.ts';
import { LIVE_CONNECTORS } from '../connectors.ts';
import { startLoopback, type Loopback, type Reply } from './loopback.ts';
import { startStandIn, type StandIn } from './stand-in.ts';

export interface StandInSet {
  markets: ReadonlyMap<MarketId, StandIn>;
  ecb: Loopback;
  ecbUrl: string;
  /** The ECB stand-in's answer from now on (default: the sample file). */
  ecbReply(reply: Reply | null): void;
  /** Writes a markets file enabling exactly these stand-ins (others disabled). */
  writeMarketsFile(path: string, pollSeconds?: number): void;
  close(): Promise<void>;
}

export async function startStandInSet(
  markets: readonly MarketId[] = LIVE_CONNECTORS.map((connector) => connector.info.id),
): Promise<StandInSet> {
  const standIns = new Map<MarketId, StandIn>();
  for (const market of markets) standIns.set(market, await startStandIn(market));
  const ecb = await startLoopback();
  let ecbOverride: Reply | null = null;
  ecb.route('GET /eurofxref-daily.xml', () => ecbOverride ?? { kind: 'text', body: ECB_SAMPLE });
  const ecbUrl = `${ecb.url}/eurofxref-daily.xml`;
  return {
    markets: standIns,
    ecb,
    ecbUrl,
    ecbReply: (reply) => void (ecbOverride = reply),
    writeMarketsFile(path, pollSeconds) {
      const entries = LIVE_CONNECTORS.map(({ info }) => {
        const standIn = standIns.get(info.id);
        if (!standIn) return [info.id, { enabled: false }];
        return [info.id, { baseUrl: standIn.url, ...(pollSeconds ? { pollSeconds } : {}) }];
      });
      const file = { markets: Object.fromEntries(entries), fx: { url: ecbUrl } };
      writeFileSync(path, `${JSON.stringify(file, null, 2)}\n`);
    },
    async close() {
      for (const standIn of standIns.values()) await standIn.close();
      await ecb.close();
    },
  };
}
