/**
 * A connector request to the wire request the HTTP port sends: the absolute URL (base URL,
 * path, query with repeated keys for arrays), the JSON body serialised once, the connector's
 * signature over exactly those bytes (computed at each attempt, so it is never stale), and a label that names the market, method and
 * path but never a query string or secret.
 */
import type { Connector, ConnectorRequest } from '../connector.ts';
import type { HttpRequest } from '../http/market-http.ts';

export function requestUrl(baseUrl: string, request: ConnectorRequest): URL {
  const url = new URL(baseUrl.replace(/\/+$/, '') + request.path);
  for (const [key, value] of Object.entries(request.query ?? {})) {
    if (Array.isArray(value)) for (const entry of value) url.searchParams.append(key, entry);
    else url.searchParams.append(key, String(value));
  }
  return url;
}

export function toHttpRequest(
  market: string,
  baseUrl: string,
  request: ConnectorRequest,
  connector: Pick<Connector, 'sign'>,
  credentials: Readonly<Record<string, string>>,
): HttpRequest {
  const url = requestUrl(baseUrl, request);
  const body = request.body === undefined ? undefined : JSON.stringify(request.body);
  const sign = connector.sign;
  return {
    method: request.method,
    url: url.toString(),
    ...(request.headers ? { headers: request.headers } : {}),
    ...(sign
      ? {
          sign: (now: number) =>
            sign({
              credentials,
              now,
              method: request.method,
              pathWithQuery: url.pathname + url.search,
              body: body ?? '',
            }),
        }
      : {}),
    ...(body === undefined ? {} : { body }),
    expect: request.expect ?? 'json',
    ...(request.timeoutMs === undefined ? {} : { timeoutMs: request.timeoutMs }),
    ...(request.maxBytes === undefined ? {} : { maxBytes: request.maxBytes }),
    ...(request.conditional === undefined ? {} : { conditional: request.conditional }),
    label: `${market} ${request.method} ${request.path}`,
  };
}
