/**
 * Doppler and Gamma Doppler phases. Steam names carry no phase; markets identify it by paint
 * index or splice it into the name (`★ Karambit | Doppler Phase 2 (Factory New)`). The
 * paint-index table is the one CSFloat's extension uses (see shared/reference/markets.md).
 */
import type { DopplerFamily } from '../../domain/item.ts';

export const DOPPLER_PHASE_BY_PAINT_INDEX: Readonly<Record<number, string>> = {
  415: 'Ruby',
  416: 'Sapphire',
  417: 'Black Pearl',
  418: 'Phase 1',
  419: 'Phase 2',
  420: 'Phase 3',
  421: 'Phase 4',
  617: 'Black Pearl',
  618: 'Phase 2',
  619: 'Sapphire',
  852: 'Phase 1',
  853: 'Phase 2',
  854: 'Phase 3',
  855: 'Phase 4',
  568: 'Emerald',
  569: 'Phase 1',
  570: 'Phase 2',
  571: 'Phase 3',
  572: 'Phase 4',
  1119: 'Emerald',
  1120: 'Phase 1',
  1121: 'Phase 2',
  1122: 'Phase 3',
  1123: 'Phase 4',
};

/** Display order of variant labels: numbered phases, then gems. */
export const PHASE_LABELS = [
  'Phase 1',
  'Phase 2',
  'Phase 3',
  'Phase 4',
  'Ruby',
  'Sapphire',
  'Black Pearl',
  'Emerald',
] as const;

export function dopplerFamily(finish: string | undefined): DopplerFamily | undefined {
  if (finish === 'Doppler') return 'doppler';
  if (finish === 'Gamma Doppler') return 'gamma_doppler';
  return undefined;
}

export function phaseNumber(label: string): number | undefined {
  const match = /^Phase ([1-4])$/.exec(label);
  return match ? Number(match[1]) : undefined;
}

export function phaseOrder(label: string): number {
  const index = (PHASE_LABELS as readonly string[]).indexOf(label);
  return index < 0 ? PHASE_LABELS.length : index;
}

/**
 * Canonical label for loose input: `phase 2`, `Phase2`, `p2`, `2`, `black pearl`, `RUBY`.
 * Undefined when the text names no phase or gem.
 */
export function normalizePhaseLabel(text: string): string | undefined {
  const compact = text.toLowerCase().replace(/[\s_-]+/g, '');
  const numbered = /^(?:phase|p)?([1-4])$/.exec(compact);
  if (numbered) return `Phase ${numbered[1]}`;
  return PHASE_LABELS.find((label) => label.toLowerCase().replace(/\s+/g, '') === compact);
}

/** `★ Karambit | Doppler (Factory New)` + `Ruby` → `★ Karambit | Doppler Ruby (Factory New)`. */
export function splicePhase(marketHashName: string, finish: string, label: string): string {
  const marker = `| ${finish}`;
  const at = marketHashName.lastIndexOf(marker);
  if (at < 0) return `${marketHashName} ${label}`;
  const end = at + marker.length;
  return `${marketHashName.slice(0, end)} ${label}${marketHashName.slice(end)}`;
}
