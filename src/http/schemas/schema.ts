/**
 * Response schemas of the item schema routes (spec "Item schema"). Records are sparse: every
 * field but identity, category and version is optional and absent when it does not apply.
 */
import { Type } from '@sinclair/typebox';
import { Nullable, StringEnum, Timestamp } from './common.ts';

const Str = (description?: string) =>
  Type.Optional(Type.String(description ? { description } : {}));
const Bool = (description?: string) =>
  Type.Optional(Type.Boolean(description ? { description } : {}));
const Keys = (description: string) => Type.Optional(Type.Array(Type.String(), { description }));

export const SchemaVariant = Type.Object({
  marketHashName: Type.String({ description: 'Priceable name of the phase or gem.' }),
  family: StringEnum(['doppler', 'gamma_doppler'] as const),
  name: Type.String({ description: 'Phase 1–4, Ruby, Sapphire, Black Pearl or Emerald.' }),
  phase: Type.Optional(Type.Integer({ minimum: 1, maximum: 4 })),
  image: Str(),
});

export const SchemaRecord = Type.Object(
  {
    id: Type.String({ description: 'Canonical item id, the join key with every price response.' }),
    marketHashName: Type.String(),
    slug: Type.String(),
    category: Type.String(),
    version: Type.Integer({ description: 'Millisecond epoch of the item’s last content change.' }),
    removed: Type.Optional(Type.Literal(true, { description: 'Change feed: the item is gone.' })),
    baseName: Str(),
    weapon: Str(),
    finish: Str(),
    paintIndex: Str('Paint index (a string, as on the public service).'),
    rarity: Str('Key into the rarities registry.'),
    wear: Str(),
    wears: Keys('Exterior names the float range reaches.'),
    stattrak: Bool(),
    souvenir: Bool(),
    hasStattrak: Bool(),
    hasSouvenir: Bool(),
    stattrakOf: Str('Canonical id of the plain item this StatTrak™ entry is a flavour of.'),
    souvenirOf: Str('Canonical id of the plain item this Souvenir entry is a flavour of.'),
    floatRange: Type.Optional(Type.Object({ min: Type.Number(), max: Type.Number() })),
    variants: Type.Optional(Type.Array(SchemaVariant)),
    variantOf: Str('Canonical id of the base Doppler / Gamma Doppler item.'),
    variant: Str('Phase or gem of a variant entry.'),
    collections: Keys('Keys into the collections registry.'),
    containers: Keys('Keys into the containers registry.'),
    ids: Type.Optional(Type.Record(Type.String(), Type.String())),
    image: Str(),
    releaseDate: Type.Optional(Timestamp()),
    learned: Bool('Learned from the naming authority (steamcommunity), not the item package.'),
    learnedFrom: Str(),
  },
  { description: 'Sparse: a field that does not apply is absent, never null.' },
);

export const Registries = Type.Object({
  rarities: Type.Array(
    Type.Object({
      key: Type.String(),
      name: Type.String(),
      tier: Type.Integer(),
      color: Type.String(),
    }),
  ),
  collections: Type.Record(Type.String(), Type.Object({ name: Type.String() })),
  containers: Type.Record(
    Type.String(),
    Type.Object({ name: Type.String(), kind: Type.String(), image: Str() }),
  ),
});

export const SchemaSnapshot = Type.Object({
  schemaVersion: Type.Integer({ description: 'Millisecond epoch of the newest change.' }),
  generatedAt: Timestamp(),
  itemCount: Type.Integer(),
  items: Type.Record(Type.String(), SchemaRecord, { description: 'Keyed by market_hash_name.' }),
  ...Registries.properties,
});

export const SchemaItem = Type.Object({
  schemaVersion: Type.Integer(),
  item: SchemaRecord,
  registries: Registries,
});

export const SchemaChanges = Type.Object({
  schemaVersion: Type.Integer({
    description: 'Upper bound of this sync; store it and pass it as the next `since`.',
  }),
  since: Type.Integer({ description: 'The sync’s lower bound, ms epoch.' }),
  count: Type.Integer(),
  hasMore: Type.Boolean(),
  nextCursor: Nullable(Type.String()),
  items: Type.Array(SchemaRecord),
  registries: Registries,
});
