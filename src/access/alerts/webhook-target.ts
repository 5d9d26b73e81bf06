/**
 * Which webhook URLs may be called (no SSRF): http or https only, and every address the host
 * resolves to must be public unicast, unless the operator allows private targets
 * (`--webhooks-allow-private`). Checked when an alert is created and again on every connection
 * (the `lookup` given to the sending agent), so a name re-pointed at a private address later is
 * refused too.
 */
import { lookup as dnsLookup } from 'node:dns';
import ipaddr from 'ipaddr.js';

export type Resolve = (host: string) => Promise<string[]>;

export const systemResolve: Resolve = (host) =>
  new Promise((resolve, reject) => {
    dnsLookup(host, { all: true, verbatim: true }, (error, addresses) => {
      if (error) reject(error);
      else resolve(addresses.map((entry) => entry.address));
    });
  });

/** Whether an IP address is a public unicast one (IPv4-mapped IPv6 judged as IPv4). */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address);
  return parsed.range() === 'unicast';
}

function hostOf(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

/** Why `raw` may not be a webhook URL, or null when it may. */
export async function webhookUrlProblem(
  raw: string,
  allowPrivate: boolean,
  resolve: Resolve = systemResolve,
): Promise<string | null> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'url must be an absolute http or https URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return 'url must use http or https';
  }
  if (url.username || url.password) return 'url must not carry credentials';
  if (allowPrivate) return null;
  const host = hostOf(url);
  let addresses: string[];
  try {
    addresses = ipaddr.isValid(host) ? [host] : await resolve(host);
  } catch {
    return `url host ${host} does not resolve`;
  }
  const refused = addresses.find((address) => !isPublicAddress(address));
  if (addresses.length === 0 || refused !== undefined) {
    return `url host ${host} resolves to a non-public address (${refused ?? 'none'})`;
  }
  return null;
}
