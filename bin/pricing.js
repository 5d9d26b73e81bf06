#!/usr/bin/env node
// Runs the `pricing` CLI from the server bundle (bin/server-bundle.js: rebuilt whenever a source
// changed), or from the TypeScript sources through tsx when no bundle can be built. Nothing is
// written to stdout here: commands' output is parsed.
import { ensureServerBundle, holdBuild } from './server-bundle.js';

async function bundledCli() {
  if (process.env.PRICING_BUNDLE === 'off') return null;
  try {
    return (await ensureServerBundle()).url;
  } catch {
    return null;
  }
}

const cli = await bundledCli();
if (cli) {
  holdBuild(cli);
  process.setSourceMapsEnabled(true);
  await import(cli);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../src/cli.ts');
}
