/**
 * Request budget per market per hour against its published limit: one simulated hour of
 * polling per connector at its cadence (a manual clock; waits for budget advance it), against a
 * loopback stand-in serving the connector's fixtures, with the connector's fixture names as the
 * users' most wanted items (so per-item endpoints spend what they would). Counts every request
 * that reached the stand-in, and the most sent in any window of each limit, which must never
 * exceed it.
 */
import { manualClock, HOUR, MINUTE } from '../src/domain/clock.ts';
import type { Connector } from '../src/markets/connector.ts';
import { LIVE_CONNECTORS } from '../src/markets/connectors.ts';
import { createMarketHttp } from '../src/markets/http/http-client.ts';
import { createUndiciTransport } from '../src/markets/http/undici-transport.ts';
import { ConnectorAdapter } from '../src/markets/live/connector-adapter.ts';
import { responseFixtures } from '../src/markets/testing/fixtures.ts';
import { startStandIn } from '../src/markets/testing/stand-in.ts';

function mostInAnyWindow(times: readonly number[], windowMs: number): number {
  let most = 0;
  for (let start = 0, end = 0; end < times.length; end += 1) {
    while (times[end]! - times[start]! >= windowMs) start += 1;
    most = Math.max(most, end - start + 1);
  }
  return most;
}

function windowText(ms: number): string {
  return ms < MINUTE ? `${ms / 1000} s` : `${ms / MINUTE} min`;
}

function perHour(connector: Connector): number {
  return Math.min(...connector.info.limits.map((l) => (l.requests * HOUR) / l.windowMs));
}

async function simulateHour(connector: Connector): Promise<string> {
  const clock = manualClock('2026-11-24T12:00:00Z');
  const standIn = await startStandIn(connector.info.id);
  const real = createUndiciTransport();
  const times: number[] = [];
  const transport = {
    attempt: (...args: Parameters<typeof real.attempt>) => {
      times.push(clock.now());
      return real.attempt(...args);
    },
    close: () => real.close(),
  };
  const http = createMarketHttp({ clock, transport, sleep: async (ms) => clock.advance(ms) });
  const wanted = [
    ...new Set(
      responseFixtures(connector.info.id).flatMap((f) =>
        f.expected.observations.map((o) => o.item),
      ),
    ),
  ];
  const credentials = Object.fromEntries(connector.info.credentials.map((c) => [c.env, 'bench']));
  const adapter = new ConnectorAdapter({
    connector,
    channel: http.channel(connector.info.id, { limits: connector.info.limits }),
    baseUrl: standIn.url,
    cadenceMs: connector.info.cadenceMs,
    credentials,
    clock,
    priorities: () => wanted,
  });
  const start = clock.now();
  let polls = 0;
  try {
    for (let due = start; due < start + HOUR; due += connector.info.cadenceMs) {
      if (clock.now() < due) clock.set(due);
      for (const game of connector.info.games) {
        polls += 1;
        await adapter.fetchRaw({ game, now: clock.now() }).catch(() => undefined);
      }
    }
  } finally {
    await http.close();
    await standIn.close();
  }
  const inHour = times.filter((t) => t < start + HOUR);
  const windows = connector.info.limits
    .map((l) => `${mostInAnyWindow(times, l.windowMs)}/${l.requests} per ${windowText(l.windowMs)}`)
    .join(', ');
  const limit = perHour(connector);
  return `${connector.info.id.padEnd(15)} ${String(connector.info.cadenceMs / MINUTE).padStart(4)} min  ${String(polls).padStart(4)} polls  ${String(inHour.length).padStart(5)} requests/h  limit ${String(Math.round(limit)).padStart(5)}/h  ${((inHour.length / limit) * 100).toFixed(0).padStart(3)}%  busiest window ${windows}`;
}

export async function benchLiveBudgets(): Promise<void> {
  console.log(
    'market          cadence  polls  requests in one hour, against the published (or assumed) limit',
  );
  for (const connector of LIVE_CONNECTORS) console.log(await simulateHour(connector));
}
