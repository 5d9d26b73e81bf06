/**
 * Sends one webhook attempt: POST of the stored JSON body, signed, through an undici Agent whose
 * DNS lookup refuses non-public addresses (unless allowed), without following redirects, and
 * given up after the timeout (10 s by default). Never throws: the outcome is an HTTP status or
 * an error text for the attempt log.
 */
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { Agent, request } from 'undici';
import { signatureHeader } from './signature.ts';
import { isPublicAddress, webhookUrlProblem } from './webhook-target.ts';

export const WEBHOOK_TIMEOUT_MS = 10_000;

export interface WebhookAttempt {
  url: string;
  secret: string;
  eventId: string;
  body: string;
  unixSeconds: number;
}

export interface SendResult {
  httpStatus: number | null;
  error: string | null;
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/** A dns.lookup that fails for names resolving to a non-public address. */
function publicOnlyLookup(hostname: string, options: LookupOptions, callback: LookupCallback) {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    const refused = addresses.find((entry) => !isPublicAddress(entry.address));
    if (refused || addresses.length === 0) {
      const reason = `${hostname} resolves to a non-public address (${refused?.address ?? 'none'})`;
      return callback(Object.assign(new Error(reason), { code: 'EWEBHOOKPRIVATE' }), []);
    }
    if (options.all) return callback(null, addresses);
    const [first] = addresses;
    callback(null, first!.address, first!.family);
  });
}

export class WebhookSender {
  private readonly agent: Agent;

  constructor(
    private readonly allowPrivate: boolean,
    private readonly timeoutMs = WEBHOOK_TIMEOUT_MS,
  ) {
    this.agent = new Agent({
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      connect: { timeout: timeoutMs, ...(allowPrivate ? {} : { lookup: publicOnlyLookup }) },
    });
  }

  async send(attempt: WebhookAttempt): Promise<SendResult> {
    const problem = await webhookUrlProblem(attempt.url, this.allowPrivate);
    if (problem) return { httpStatus: null, error: `refused: ${problem}` };
    try {
      const response = await request(attempt.url, {
        method: 'POST',
        dispatcher: this.agent,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'pricing-webhooks/1',
          'x-pricing-event-id': attempt.eventId,
          'x-pricing-signature': signatureHeader(attempt.secret, attempt.unixSeconds, attempt.body),
        },
        body: attempt.body,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      await response.body.dump();
      return { httpStatus: response.statusCode, error: null };
    } catch (error) {
      return { httpStatus: null, error: describeFailure(error) };
    }
  }

  async close(): Promise<void> {
    await this.agent.close();
  }
}

function describeFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  if (error.name === 'TimeoutError' || error.name === 'AbortError') return 'timeout';
  return `${error.message}${cause}`.slice(0, 300);
}
