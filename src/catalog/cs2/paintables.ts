/**
 * Weapon skins, knives and gloves: one entry per exterior the float range reaches, in each
 * flavour the drop sources allow. Naming (Steam):
 *   `AK-47 | Redline (Field-Tested)`, `StatTrak™ AK-47 | …`, `Souvenir AWP | …`,
 *   `★ Karambit | Doppler (Factory New)`, `★ StatTrak™ Karambit | …` (star first),
 *   vanilla `★ Karambit` / `★ StatTrak™ Karambit` (no exterior), gloves never StatTrak™.
 * Doppler / Gamma Doppler finishes (several library entries, one per phase) become one base
 * entry with `variants[]`, followed by a priceable entry per phase with the phase spliced in.
 */
import type { CS2Item } from '@ianlucas/cs2-lib';
import type { Variant } from '../../domain/item.ts';
import { canonicalId } from '../canonical-id.ts';
import type { ItemDraft } from '../finalize.ts';
import { containerKey } from './containers.ts';
import {
  DOPPLER_PHASE_BY_PAINT_INDEX,
  dopplerFamily,
  phaseNumber,
  phaseOrder,
  splicePhase,
} from './doppler.ts';
import { exteriorsFor } from './exteriors.ts';
import type { Exterior } from './exteriors.ts';
import { paintableFields } from './price-model.ts';
import type { PaintableKind, PaintablePriceInput } from './price-model.ts';
import { rarityKey } from './rarities.ts';
import type { Cs2Source } from './source.ts';

const KIND_BY_TYPE: Readonly<Record<string, PaintableKind>> = {
  weapon: 'skin',
  melee: 'knife',
  glove: 'gloves',
};

type Flavour = 'normal' | 'stattrak' | 'souvenir';
const FLAVOUR_PREFIX: Readonly<Record<Flavour, string>> = {
  normal: '',
  stattrak: 'StatTrak™ ',
  souvenir: 'Souvenir ',
};

interface PhaseEntry {
  label: string;
  paintIndex: number;
  image?: string;
}

/** Everything shared by the entries of one finish (or one vanilla knife). */
interface Finish {
  kind: PaintableKind;
  name: string;
  weapon: string;
  finish?: string;
  shared: Omit<ItemDraft, 'marketHashName'>;
  exteriors: (Exterior | undefined)[];
  flavours: Flavour[];
  phases: PhaseEntry[];
}

export function paintableDrafts(source: Cs2Source): ItemDraft[] {
  const drafts: ItemDraft[] = [];
  for (const group of groupByName(source)) {
    const finish = describeFinish(source, group);
    for (const flavour of finish.flavours) {
      for (const exterior of finish.exteriors)
        drafts.push(...entryDrafts(finish, flavour, exterior));
    }
  }
  return drafts;
}

function isPriceable(item: CS2Item): boolean {
  if (KIND_BY_TYPE[item.type] === undefined || item.free === true) return false;
  return item.base !== true || item.type === 'melee';
}

function groupByName(source: Cs2Source): CS2Item[][] {
  const groups = new Map<string, CS2Item[]>();
  for (const item of source.items) {
    if (!isPriceable(item)) continue;
    const name = source.name(item);
    const group = groups.get(name);
    if (group) group.push(item);
    else groups.set(name, [item]);
  }
  return [...groups.values()];
}

function describeFinish(source: Cs2Source, group: CS2Item[]): Finish {
  const first = group[0] as CS2Item;
  const kind = KIND_BY_TYPE[first.type] as PaintableKind;
  const name = source.name(first);
  const vanilla = first.base === true;
  const base = first.baseId === undefined ? undefined : source.byId(first.baseId);
  const weapon = vanilla || !base ? name : source.name(base);
  const finish = vanilla ? undefined : name.slice(name.indexOf(' | ') + 3);
  const phases = dopplerFamily(finish) && group.length > 1 ? phaseEntries(source, group) : [];
  const floatRange = vanilla ? undefined : { min: first.wearMin ?? 0, max: first.wearMax ?? 1 };
  const exteriors = floatRange ? exteriorsFor(floatRange.min, floatRange.max) : [undefined];
  const hasStattrak = kind !== 'gloves' && group.some((item) => source.stattrakIds.has(item.id));
  const hasSouvenir = kind === 'skin' && group.some((item) => source.souvenirIds.has(item.id));
  const flavours: Flavour[] = ['normal'];
  if (hasStattrak) flavours.push('stattrak');
  if (hasSouvenir) flavours.push('souvenir');
  const paintIndex = vanilla || phases.length > 0 ? undefined : first.index;
  const wears = exteriors.flatMap((exterior) => (exterior ? [exterior.name] : []));
  const shared: Omit<ItemDraft, 'marketHashName'> = {
    category: kind,
    baseName: name,
    weapon,
    ...(finish ? { finish } : {}),
    ...optionalFields(source, group, kind),
    ...(wears.length > 0 ? { wears } : {}),
    ...(hasStattrak ? { hasStattrak } : {}),
    ...(hasSouvenir ? { hasSouvenir } : {}),
    ...(floatRange ? { floatRange } : {}),
    ...(paintIndex !== undefined ? { paintIndex } : {}),
  };
  return { kind, name, weapon, ...(finish ? { finish } : {}), shared, exteriors, flavours, phases };
}

/** Rarity, collection, containers and image: present only when the library has them. */
function optionalFields(source: Cs2Source, group: CS2Item[], kind: PaintableKind) {
  const first = group[0] as CS2Item;
  const rarity = rarityKey(kind === 'gloves' ? 'misc' : 'weapon', first.rarity);
  const containers = [...new Set(group.flatMap((item) => containerKeys(source, item)))];
  const image = source.imageUrl(first.image);
  return {
    ...(rarity ? { rarity } : {}),
    ...(first.collection ? { collections: [first.collection] } : {}),
    ...(containers.length > 0 ? { containers } : {}),
    ...(image ? { image } : {}),
  };
}

function containerKeys(source: Cs2Source, item: CS2Item): string[] {
  return (source.containersOf.get(item.id) ?? []).flatMap((id) => {
    const container = source.byId(id);
    return container ? [containerKey(source, container)] : [];
  });
}

function phaseEntries(source: Cs2Source, group: CS2Item[]): PhaseEntry[] {
  const entries = group.flatMap((item): PhaseEntry[] => {
    const paintIndex = item.index;
    if (paintIndex === undefined) return [];
    const label = DOPPLER_PHASE_BY_PAINT_INDEX[paintIndex] ?? item.altName;
    const image = source.imageUrl(item.image);
    return label ? [{ label, paintIndex, ...(image ? { image } : {}) }] : [];
  });
  return entries.sort((a, b) => phaseOrder(a.label) - phaseOrder(b.label));
}

function entryName(finish: Finish, flavour: Flavour, exterior: Exterior | undefined): string {
  const star = finish.kind === 'skin' ? '' : '★ ';
  const wear = exterior ? ` (${exterior.name})` : '';
  return `${star}${FLAVOUR_PREFIX[flavour]}${finish.name}${wear}`;
}

function entryDrafts(
  finish: Finish,
  flavour: Flavour,
  exterior: Exterior | undefined,
): ItemDraft[] {
  const marketHashName = entryName(finish, flavour, exterior);
  const priceInput: PaintablePriceInput = {
    kind: finish.kind,
    marketHashName,
    baseName: finish.name,
    weapon: finish.weapon,
    ...(finish.finish ? { finish: finish.finish } : {}),
    ...(finish.shared.rarity ? { rarity: finish.shared.rarity } : {}),
    ...(exterior ? { exterior } : {}),
    stattrak: flavour === 'stattrak',
    souvenir: flavour === 'souvenir',
  };
  const base: ItemDraft = {
    marketHashName,
    ...finish.shared,
    ...(exterior ? { wear: exterior.name } : {}),
    ...(priceInput.stattrak ? { stattrak: true } : {}),
    ...(priceInput.souvenir ? { souvenir: true } : {}),
  };
  if (finish.phases.length === 0 || !finish.finish) {
    return [{ ...base, ...paintableFields(priceInput) }];
  }
  return withVariants(base, finish.finish, finish.phases, priceInput);
}

/** The phase-less Steam entry with `variants[]`, then one entry per phase. */
function withVariants(
  base: ItemDraft,
  finish: string,
  phases: PhaseEntry[],
  priceInput: PaintablePriceInput,
): ItemDraft[] {
  const family = dopplerFamily(finish) ?? 'doppler';
  const baseId = canonicalId('cs2', base.marketHashName);
  const variants: Variant[] = phases.map((phase) => {
    const number = phaseNumber(phase.label);
    return {
      marketHashName: splicePhase(base.marketHashName, finish, phase.label),
      family,
      name: phase.label,
      ...(number !== undefined ? { phase: number } : {}),
      paintIndex: phase.paintIndex,
      ...(phase.image ? { image: phase.image } : {}),
    };
  });
  const entries = variants.map((variant): ItemDraft => ({
    ...base,
    marketHashName: variant.marketHashName,
    paintIndex: variant.paintIndex,
    variantOf: baseId,
    phase: variant.name,
    ...(variant.image ? { image: variant.image } : {}),
    ...paintableFields({
      ...priceInput,
      marketHashName: variant.marketHashName,
      phase: variant.name,
    }),
  }));
  return [{ ...base, variants, ...paintableFields(priceInput) }, ...entries];
}
