/**
 * What one live poll delivered: the parsed pages that arrived and the requests that failed,
 * assembled the same way whether the answers come from the upstream (`ConnectorAdapter`) or
 * from a recording (`pricing replay`). A poll where nothing arrived fails with the first
 * failure's kind; otherwise its pages are delivered and the poll is `partial`.
 */
import type { ConnectorRequest, PageResult } from '../connector.ts';
import { HttpFailure } from '../http/market-http.ts';
import { AdapterError, type ParseResult } from '../market-adapter.ts';

interface Failed {
  request: ConnectorRequest;
  failure: HttpFailure;
}

export interface PollBody {
  pages: PageResult[];
  failures: Failed[];
}

/** After these, the channel will not send anything for a while: stop the poll early. */
const STOPS_POLL = new Set(['budget', 'circuit_open', 'rate_limited', 'auth']);

/** Adds one request's outcome; true when the poll should stop here. */
export function addOutcome(
  body: PollBody,
  request: ConnectorRequest,
  outcome: PageResult | HttpFailure,
): boolean {
  if (outcome instanceof HttpFailure) {
    body.failures.push({ request, failure: outcome });
    return STOPS_POLL.has(outcome.kind);
  }
  if (outcome.failure) {
    const failure = new HttpFailure(outcome.failure.kind, outcome.failure.detail);
    body.failures.push({ request, failure });
    if (outcome.observations.length > 0) body.pages.push(outcome);
    return STOPS_POLL.has(failure.kind);
  }
  body.pages.push(outcome);
  return false;
}

/** The poll's body, or the failure of a poll where nothing arrived. */
export function finishPoll(body: PollBody): PollBody {
  if (body.pages.length === 0 && body.failures.length > 0) {
    const first = body.failures[0]!.failure;
    throw new AdapterError(first.message, true, first.kind);
  }
  return body;
}

export function parsePollBody(body: PollBody): ParseResult {
  const observations = [];
  const rejected = [];
  for (const page of body.pages) {
    for (const observation of page.observations) observations.push(observation);
    for (const rejection of page.rejected) rejected.push(rejection);
  }
  const result: ParseResult = { observations, rejected };
  const first = body.failures[0];
  if (first) {
    const detail = `${body.failures.length} of ${body.failures.length + body.pages.length} requests failed; first: ${first.failure.message}`;
    result.partial = { kind: first.failure.kind, detail };
  }
  return result;
}

/** A parser that throws is a bug, not upstream garbage: its page becomes one rejection. */
export function safeParse(parse: () => PageResult): PageResult {
  try {
    const result = parse();
    if (!Array.isArray(result?.observations) || !Array.isArray(result?.rejected)) {
      return {
        observations: [],
        rejected: [{ reason: 'malformed', detail: 'parser returned no arrays' }],
      };
    }
    return result;
  } catch (error) {
    return {
      observations: [],
      rejected: [{ reason: 'malformed', detail: `parser threw: ${String(error)}` }],
    };
  }
}
