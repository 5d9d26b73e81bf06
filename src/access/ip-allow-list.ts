/**
 * IP allow-lists for Enterprise keys: CIDR validation, normalisation and matching with ipaddr.js.
 * IPv4-mapped IPv6 clients (`::ffff:10.0.0.1`) match IPv4 ranges, and IPv4 clients match
 * `::ffff:…` ranges. A bare address is accepted as a single-host range (/32 or /128).
 */
import ipaddr from 'ipaddr.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;
export type ParsedRange = [Address, number];

function parseStrictAddress(text: string): Address | null {
  if (ipaddr.IPv4.isValidFourPartDecimal(text)) return ipaddr.IPv4.parse(text);
  if (ipaddr.IPv6.isValid(text)) return ipaddr.IPv6.parse(text);
  return null;
}

/** Parses `addr/bits` or a bare address; null when invalid. */
export function parseRange(text: string): ParsedRange | null {
  const trimmed = text.trim();
  const slash = trimmed.indexOf('/');
  const address = parseStrictAddress(slash === -1 ? trimmed : trimmed.slice(0, slash));
  if (!address) return null;
  const maxBits = address.kind() === 'ipv4' ? 32 : 128;
  if (slash === -1) return [address, maxBits];
  const bitsText = trimmed.slice(slash + 1);
  if (!/^\d{1,3}$/.test(bitsText)) return null;
  const bits = Number(bitsText);
  return bits <= maxBits ? [address, bits] : null;
}

/** The canonical text of a valid range (`10.0.0.0/8`, `2001:db8::/32`), or null. */
export function normaliseRange(text: string): string | null {
  const range = parseRange(text);
  if (!range) return null;
  const [address, bits] = range;
  const shown =
    address.kind() === 'ipv6' ? (address as ipaddr.IPv6).toRFC5952String() : address.toString();
  return `${shown}/${bits}`;
}

/** Ranges that fail to parse are skipped (admin input is validated before it is stored). */
export function parseAllowList(cidrs: readonly string[]): ParsedRange[] {
  return cidrs.flatMap((cidr) => {
    const range = parseRange(cidr);
    return range ? [range] : [];
  });
}

function parseClientIp(ip: string): Address | null {
  try {
    return ipaddr.process(ip.trim());
  } catch {
    return null;
  }
}

function matchesRange(client: Address, [network, bits]: ParsedRange): boolean {
  if (client.kind() === network.kind()) return client.match(network, bits);
  if (client.kind() === 'ipv4' && network.kind() === 'ipv6') {
    return (client as ipaddr.IPv4).toIPv4MappedAddress().match(network, bits);
  }
  return false;
}

export function ipAllowed(ranges: readonly ParsedRange[], clientIp: string): boolean {
  const client = parseClientIp(clientIp);
  return client !== null && ranges.some((range) => matchesRange(client, range));
}

/** One text per client address, so `::ffff:1.2.3.4` and `1.2.3.4` share a budget. */
export function canonicalIp(ip: string): string {
  return parseClientIp(ip)?.toString() ?? ip;
}
