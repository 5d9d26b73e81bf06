/**
 * 405 for a known path with the wrong method. Every registered route is recorded; when the
 * router finds no route, the request's path is matched against the recorded patterns and, if
 * some other method serves it, the answer is 405 with an `Allow` header (before any body is
 * read). Unknown paths fall through to the 404 handler.
 */
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { ApiError } from '../../domain/errors.ts';

interface RoutePattern {
  regex: RegExp;
  methods: Set<string>;
}

function patternOf(url: string): RegExp {
  const source = url
    .replace(/\/+$/, '')
    .split('/')
    .map((segment) => {
      if (segment === '*') return '.*';
      if (segment.startsWith(':')) return '[^/]+';
      return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  return new RegExp(`^${source}/?$`);
}

export class RouteTable {
  private readonly patterns = new Map<string, RoutePattern>();

  add(route: Pick<RouteOptions, 'method' | 'url'>): void {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    let held = this.patterns.get(route.url);
    if (!held)
      this.patterns.set(route.url, (held = { regex: patternOf(route.url), methods: new Set() }));
    for (const method of methods) held.methods.add(method.toUpperCase());
    if (held.methods.has('GET')) held.methods.add('HEAD');
  }

  /** Methods some route serves at `path` (sorted); empty for an unknown path. */
  allowedMethods(path: string): string[] {
    const allowed = new Set<string>();
    const normalised = path.replace(/\/{2,}/g, '/');
    for (const pattern of this.patterns.values()) {
      if (pattern.regex.test(normalised)) for (const method of pattern.methods) allowed.add(method);
    }
    return [...allowed].sort();
  }
}

export function methodNotAllowed(table: RouteTable) {
  return async (request: FastifyRequest, _reply: FastifyReply): Promise<void> => {
    if (!request.is404) return;
    const path = request.url.split('?', 1)[0] ?? '/';
    const allowed = table.allowedMethods(path);
    if (allowed.length === 0 || allowed.includes(request.method)) return;
    const allow = allowed.join(', ');
    const message = `Cannot ${request.method} ${path}: method not allowed (allowed: ${allow})`;
    throw new ApiError(405, 'METHOD_NOT_ALLOWED', message, { Allow: allow });
  };
}
