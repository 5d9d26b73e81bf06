/**
 * Waxpeer names Doppler products two ways: the Steam name with a `phase` field beside it
 * (`/v1/prices/dopplers`, `/v1/mass-info`), or the phase written into the name
 * (`★ Karambit | Doppler Phase 3 (Factory New)`, its live feed). These helpers find and remove
 * a written-in phase; `naming.ts` adds one.
 */
const SPLICED =
  /^(.*\| (?:Gamma )?Doppler) (Phase [1-4]|Ruby|Sapphire|Black Pearl|Emerald)( \([^()]+\))?$/;

/** The phase label written into a name, else null. */
export function splicedPhase(name: string): string | null {
  return SPLICED.exec(name)?.[2] ?? null;
}

/** The name without a written-in phase: the Steam market hash name `mass-info` is asked with. */
export function withoutPhase(name: string): string {
  const match = SPLICED.exec(name);
  return match ? `${match[1]}${match[3] ?? ''}` : name;
}
