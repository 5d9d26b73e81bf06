/**
 * DMarket's request signature, as its API reference ("Request signature instructions",
 * https://docs.dmarket.com/v1/swagger.html) and its reference clients
 * (`dmarket/dm-trading-tools`: README, `signature-builder/*`, `ci/verify_signing.py`) define it:
 * - the signed string is METHOD + route path + query ("?…", byte for byte as sent) + body +
 *   X-Sign-Date; the API rebuilds it from the URL it received with the route path
 *   percent-DECODED and the query as transmitted, so the path is decoded here;
 * - Ed25519 (NaCl `crypto_sign`) with the secret key, the 64-byte signature hex-encoded and sent
 *   as `X-Request-Sign: dmar ed25519 <hex>`, beside `X-Api-Key` (public key, lowercase hex) and
 *   `X-Sign-Date` (unix seconds; refused when older than 2 minutes);
 * - the secret key is NaCl's 64-byte form, seed then public key, as 128 hex characters
 *   (`bytes.fromhex(secret)` handed to `crypto_sign`). A bare 32-byte seed (64 hex) is also
 *   accepted. A secret that does not decode, or whose public half does not match its seed,
 *   leaves the request unsigned: DMarket answers 401 and the poll fails as `auth`.
 */
import { createPrivateKey, createPublicKey, sign, type KeyObject } from 'node:crypto';
import type { SigningContext } from '../connector.ts';
import { PUBLIC_KEY_ENV, SECRET_KEY_ENV } from './units.ts';

export const SIGNATURE_PREFIX = 'dmar ed25519 ';
/** DER header of a PKCS#8 Ed25519 private key; the 32-byte seed follows it. */
const PKCS8_ED25519 = Buffer.from('302e020100300506032b657004220420', 'hex');

let cached: { secret: string; key: KeyObject | null } | null = null;

function decodePath(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/** The exact text DMarket verifies for a request. */
export function stringToSign(
  method: string,
  pathWithQuery: string,
  body: string,
  timestamp: string,
): string {
  const cut = pathWithQuery.indexOf('?');
  const path = cut < 0 ? pathWithQuery : pathWithQuery.slice(0, cut);
  const query = cut < 0 ? '' : pathWithQuery.slice(cut);
  return method.toUpperCase() + decodePath(path) + query + body + timestamp;
}

function decodeSecret(secretHex: string): KeyObject | null {
  const hex = secretHex.trim().toLowerCase();
  if (!/^(?:[0-9a-f]{64}|[0-9a-f]{128})$/.test(hex)) return null;
  const bytes = Buffer.from(hex, 'hex');
  try {
    const key = createPrivateKey({
      key: Buffer.concat([PKCS8_ED25519, bytes.subarray(0, 32)]),
      format: 'der',
      type: 'pkcs8',
    });
    if (bytes.length === 64) {
      const spki = createPublicKey(key).export({ format: 'der', type: 'spki' });
      if (!spki.subarray(spki.length - 32).equals(bytes.subarray(32))) return null;
    }
    return key;
  } catch {
    return null;
  }
}

/** The Ed25519 key of a DMarket secret, or null when it is not a valid one. */
export function signingKey(secretHex: string): KeyObject | null {
  if (cached?.secret !== secretHex) cached = { secret: secretHex, key: decodeSecret(secretHex) };
  return cached.key;
}

export function signRequest(ctx: SigningContext): Record<string, string> {
  const timestamp = String(Math.floor(ctx.now / 1000));
  const headers: Record<string, string> = {
    'X-Api-Key': (ctx.credentials[PUBLIC_KEY_ENV] ?? '').trim().toLowerCase(),
    'X-Sign-Date': timestamp,
  };
  const key = signingKey(ctx.credentials[SECRET_KEY_ENV] ?? '');
  if (key === null) return headers;
  const message = stringToSign(ctx.method, ctx.pathWithQuery, ctx.body, timestamp);
  const signature = sign(null, Buffer.from(message, 'utf8'), key).toString('hex');
  headers['X-Request-Sign'] = SIGNATURE_PREFIX + signature;
  return headers;
}
