/**
 * The terminal's page and assets: GET / answers the one HTML page (no-cache, with an ETag, so
 * a new build is picked up at once) naming the content-hashed script and style, served from
 * /terminal/assets/ as immutable for a year, gzip-compressed once at boot when the client
 * accepts it. The page loads nothing from other hosts except item images (the catalog's URLs).
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../domain/errors.ts';
import type { App } from '../http/app-type.ts';
import { buildWeb, readManifest, WEB_DIST, type WebManifest } from './web-build.ts';
import { terminalPage } from './page.ts';

export const ASSET_PREFIX = '/terminal/assets/';
const IMMUTABLE = 'public, max-age=31536000, immutable';
const CONTENT_SECURITY_POLICY =
  "default-src 'self'; img-src 'self' https: data:; style-src 'self' 'unsafe-inline'; script-src 'self'; " +
  "connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

interface Asset {
  type: string;
  body: Buffer;
  gzip: Buffer;
}

function loadAsset(dir: string, name: string, type: string): Asset {
  const body = readFileSync(join(dir, name));
  return { type, body, gzip: gzipSync(body, { level: 9 }) };
}

async function manifestOrBuild(dir: string): Promise<WebManifest> {
  const manifest = readManifest(dir);
  if (manifest && existsSync(join(dir, manifest.script))) return manifest;
  return buildWeb(dir, { replace: false });
}

function acceptsGzip(request: FastifyRequest): boolean {
  return /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''));
}

function sendAsset(request: FastifyRequest, reply: FastifyReply, asset: Asset) {
  reply.header('Content-Type', asset.type).header('Cache-Control', IMMUTABLE);
  reply.header('Vary', 'Accept-Encoding');
  if (!acceptsGzip(request)) return reply.send(asset.body);
  return reply.header('Content-Encoding', 'gzip').send(asset.gzip);
}

export async function staticRoutes(app: App, dir: string = WEB_DIST): Promise<void> {
  const manifest = await manifestOrBuild(dir);
  const assets = new Map<string, Asset>([
    [manifest.script, loadAsset(dir, manifest.script, 'text/javascript; charset=utf-8')],
    [manifest.style, loadAsset(dir, manifest.style, 'text/css; charset=utf-8')],
  ]);
  const html = terminalPage(
    `${ASSET_PREFIX}${manifest.script}`,
    `${ASSET_PREFIX}${manifest.style}`,
  );
  const etag = `"${createHash('sha256').update(html).digest('base64url').slice(0, 27)}"`;

  app.get('/', { schema: { hide: true } }, async (request, reply) => {
    reply.header('Cache-Control', 'no-cache').header('ETag', etag);
    reply.header('Content-Security-Policy', CONTENT_SECURITY_POLICY);
    reply.header('X-Content-Type-Options', 'nosniff');
    if (request.headers['if-none-match'] === etag) return reply.code(304).send();
    return reply.type('text/html; charset=utf-8').send(html);
  });

  app.get(
    `${ASSET_PREFIX}:file`,
    { schema: { hide: true, params: Type.Object({ file: Type.String() }) } },
    async (request, reply) => {
      const asset = assets.get((request.params as { file: string }).file);
      if (!asset) throw new ApiError(404, 'NOT_FOUND', 'No such terminal asset');
      return sendAsset(request, reply, asset);
    },
  );
}
