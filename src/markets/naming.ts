/**
 * Market naming → our catalog's names, for connectors (pure). Steam's `market_hash_name` is the
 * catalog's spelling; markets that sell Doppler / Gamma Doppler phases as separate products
 * carry the phase beside the name (a `phase` field, a `paint_index`, a tag) and ingest resolves
 * the phase-spliced name (`★ Karambit | Doppler Phase 2 (Factory New)`) to the catalog's
 * variant. Phase labels and paint indexes: markets.md, from `csfloat/extension:
 * src/lib/utils/dopplers.ts`. Names that still do not resolve are counted as `unknown_item`,
 * never guessed.
 */
import {
  DOPPLER_PHASE_BY_PAINT_INDEX,
  normalizePhaseLabel,
  splicePhase,
} from '../catalog/cs2/doppler.ts';

const FINISHES = ['Gamma Doppler', 'Doppler'] as const;

function finishOf(name: string): string | null {
  return FINISHES.find((finish) => name.includes(`| ${finish}`)) ?? null;
}

/** The phase label (`Phase 2`, `Ruby`, …) for a Doppler paint index, else null. */
export function phaseOfPaintIndex(paintIndex: unknown): string | null {
  return typeof paintIndex === 'number' ? (DOPPLER_PHASE_BY_PAINT_INDEX[paintIndex] ?? null) : null;
}

/**
 * The name with the phase spliced in when the item is a Doppler and the label reads as a phase
 * (`Phase 2`, `phase2`, `P2`, `Ruby`, `black-pearl`); otherwise the name unchanged. A name that
 * already carries a phase is left alone.
 */
export function withPhase(name: string, phase: unknown): string {
  if (typeof phase !== 'string' || phase.trim() === '') return name;
  const finish = finishOf(name);
  const label = normalizePhaseLabel(phase);
  if (!finish || !label || new RegExp(`\\| ${finish} \\S`).test(name.replace(/ \([^()]+\)$/, ''))) {
    return name;
  }
  return splicePhase(name, finish, label);
}
