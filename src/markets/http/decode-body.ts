/**
 * A 2xx body to what the connector asked for. JSON bodies must be JSON: an HTML page (a CDN
 * challenge, a maintenance page served with 200) or a truncated document is `parse`, with
 * the first characters in the message so the log shows what came back; a challenge page is
 * `blocked` whatever was expected.
 */
import { isChallenge } from './failure-kind.ts';
import { HttpFailure, type HttpRequest } from './market-http.ts';
import type { RawResponse } from './undici-transport.ts';

function preview(text: string): string {
  return text.slice(0, 120).replace(/\s+/g, ' ').trim();
}

export function decodeBody(raw: RawResponse, request: HttpRequest): unknown {
  if (isChallenge(raw)) {
    throw new HttpFailure(
      'blocked',
      `${request.label}: a challenge page (bot protection)`,
      raw.status,
    );
  }
  const text = raw.body.toString('utf8');
  if (request.expect === 'text') return text;
  const type = raw.headers['content-type'] ?? '';
  const start = text.trimStart();
  if (/html/i.test(type) || start.startsWith('<')) {
    throw new HttpFailure(
      'parse',
      `${request.label}: an HTML page instead of JSON: ${preview(text)}`,
      raw.status,
    );
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    const reason = (error as Error).message;
    throw new HttpFailure(
      'parse',
      `${request.label}: invalid or truncated JSON (${text.length} chars; ${reason})`,
      raw.status,
    );
  }
}
