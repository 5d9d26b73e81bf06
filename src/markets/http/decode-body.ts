/**
 * A 2xx body to what the connector asked for. JSON bodies must be JSON: an HTML page (a CDN
 * challenge, a maintenance page served with 200) or a truncated document is `bad_body`, with
 * the first characters in the message so the log shows what came back.
 */
import { HttpFailure, type HttpRequest } from './market-http.ts';
import type { RawResponse } from './undici-transport.ts';

function preview(text: string): string {
  return text.slice(0, 120).replace(/\s+/g, ' ').trim();
}

export function decodeBody(raw: RawResponse, request: HttpRequest): unknown {
  const text = raw.body.toString('utf8');
  if (request.expect === 'text') return text;
  const type = raw.headers['content-type'] ?? '';
  const start = text.trimStart();
  if (/html/i.test(type) || start.startsWith('<')) {
    throw new HttpFailure(
      'bad_body',
      `${request.label}: an HTML page instead of JSON: ${preview(text)}`,
      raw.status,
    );
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    const reason = (error as Error).message;
    throw new HttpFailure(
      'bad_body',
      `${request.label}: invalid or truncated JSON (${text.length} chars; ${reason})`,
      raw.status,
    );
  }
}
