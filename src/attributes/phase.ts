/**
 * Doppler / Gamma Doppler phase tags from each source's own label. Sources name them
 * differently: "Phase 2" (CSFloat, Waxpeer, Market.CSGO `phase`), "phase2" / "P2" in some
 * exports, gems as "Ruby", "Sapphire", "Black Pearl", "Emerald" (Waxpeer phase values and the
 * gem names of the spec's variant list; C5 styleIds 11-14, 31-34 in
 * flomtz/csgoskinflip:server/collector/markets/c5game.go name the same eight). The tag key is
 * the normalised label (`phase-2`, `ruby`, `black-pearl`): equal across markets, so one phase
 * compares across sources, while the bucket's `dimensions.variant` keeps the source's label.
 */
const GEMS = ['Ruby', 'Sapphire', 'Black Pearl', 'Emerald'] as const;

export interface PhaseTag {
  /** `phase-1`..`phase-4`, `ruby`, `sapphire`, `black-pearl`, `emerald`. */
  key: string;
  /** The canonical name: "Phase 2", "Ruby", … */
  name: string;
}

const PHASE_LABEL = /^(?:doppler\s*)?(?:phase|p)\s*-?\s*([1-4])$/i;

/** The tag of a source's phase label, or null when it names no phase or gem. */
export function phaseTag(label: string | null): PhaseTag | null {
  if (label === null) return null;
  const text = label.trim().replace(/[_]+/g, ' ');
  const numbered = PHASE_LABEL.exec(text);
  if (numbered) return { key: `phase-${numbered[1]}`, name: `Phase ${numbered[1]}` };
  const squashed = text.toLowerCase().replace(/[^a-z]/g, '');
  const gem = GEMS.find((name) => name.toLowerCase().replace(/ /g, '') === squashed);
  return gem ? { key: gem.toLowerCase().replace(/ /g, '-'), name: gem } : null;
}
