/**
 * The project's root folder as seen from a module: the nearest folder above it holding a
 * package.json. The same answer from the TypeScript sources (src/…) and from the server bundle
 * (dist/server/<build>/…, bin/server-bundle.js), whose modules sit at another depth.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export function packageRoot(moduleUrl: string): string {
  const start = dirname(fileURLToPath(moduleUrl));
  for (let dir = start; dir !== dirname(dir); dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
  }
  throw new Error(`no package.json above ${start}`);
}
