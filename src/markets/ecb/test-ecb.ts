/**
 * The ECB daily reference-rate file in its published format, for FX tests and stand-ins, and
 * an answer the ECB really sent (with its source, date and licence) for the real-capture test.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const ECB_SAMPLE_PATH = join(import.meta.dirname, 'fixtures', 'eurofxref-daily.xml');
export const ECB_SAMPLE = readFileSync(ECB_SAMPLE_PATH, 'utf8');

interface RealCapture {
  capture: { source: string; commit: string; retrieved: string; licence: string };
  body: string;
  expected: { asOf: string; currencies: number; usdMicroPerUnit: Record<string, number> };
}

export const ECB_REAL_CAPTURE = JSON.parse(
  readFileSync(join(import.meta.dirname, 'fixtures', 'real-daily-2010-04-20.json'), 'utf8'),
) as RealCapture;
