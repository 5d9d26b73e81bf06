// Builds the server bundle into dist/server unless the current one matches the sources
// (bin/server-bundle.js); run by `prepare` and by scripts/run-tests.mjs before the files start.
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureServerBundle } from '../bin/server-bundle.js';

const { url, built } = await ensureServerBundle();
console.log(`server bundle ${built ? 'built' : 'current'}: ${dirname(fileURLToPath(url))}`);
