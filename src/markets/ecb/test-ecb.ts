/** The ECB daily reference-rate file in its published format, for FX tests and stand-ins. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const ECB_SAMPLE_PATH = join(import.meta.dirname, 'fixtures', 'eurofxref-daily.xml');
export const ECB_SAMPLE = readFileSync(ECB_SAMPLE_PATH, 'utf8');
