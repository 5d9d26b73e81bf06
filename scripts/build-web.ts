// Builds the web terminal's assets into dist/web (src/terminal/web-build.ts); run by `prepare`.
import { buildWeb, WEB_DIST } from '../src/terminal/web-build.ts';

const manifest = await buildWeb();
console.log(`web terminal built into ${WEB_DIST}: ${manifest.script}, ${manifest.style}`);
