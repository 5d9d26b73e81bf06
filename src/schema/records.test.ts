import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { fullCatalogs, fullCs2Registries } from '../catalog/test-catalogs.ts';
import { canonicalId } from '../catalog/canonical-id.ts';
import { learnedRecord, recordHash, schemaRecord, type SchemaRecord } from './records.ts';
import { cs2SchemaRegistries, referencedBy } from './registries.ts';

const catalogs = fullCatalogs();
const cs2 = catalogs.cs2.items.map(schemaRecord);
const rust = catalogs.rust.items.map(schemaRecord);
const byName = (records: SchemaRecord[], name: string) =>
  records.find((record) => record.marketHashName === name)!;

function nullsOrUndefined(value: unknown, path: string): string[] {
  if (value === null || value === undefined) return [path];
  if (Array.isArray(value))
    return value.flatMap((entry, at) => nullsOrUndefined(entry, `${path}[${at}]`));
  if (typeof value === 'object') {
    return Object.entries(value).flatMap(([key, field]) =>
      nullsOrUndefined(field, `${path}.${key}`),
    );
  }
  return [];
}

describe('sparse records', () => {
  test('no record of either game holds a null or an undefined field', () => {
    const problems = [...cs2, ...rust].flatMap((record) =>
      nullsOrUndefined(JSON.parse(JSON.stringify(record)), record.marketHashName).concat(
        nullsOrUndefined(record, record.marketHashName),
      ),
    );
    assert.deepEqual(problems.slice(0, 5), []);
  });

  test('a StatTrak skin carries its wear, flavour and the plain item it is a flavour of', () => {
    const record = byName(cs2, 'StatTrak™ AK-47 | Redline (Field-Tested)');
    assert.equal(record.id, canonicalId('cs2', record.marketHashName));
    assert.equal(record.wear, 'Field-Tested');
    assert.equal(record.stattrak, true);
    assert.equal(record.stattrakOf, canonicalId('cs2', 'AK-47 | Redline (Field-Tested)'));
    assert.equal(record.souvenir, undefined);
    assert.equal(record.rarity, 'classified');
    assert.equal(typeof record.paintIndex, 'string');
    assert.deepEqual(record.floatRange, { min: 0.1, max: 0.7 });
  });

  test('a Souvenir skin names its plain item; the plain item has neither link', () => {
    const souvenir = cs2.find((record) => record.souvenir === true)!;
    assert.equal(
      souvenir.souvenirOf,
      canonicalId('cs2', souvenir.marketHashName.replace('Souvenir ', '')),
    );
    const plain = byName(cs2, 'AK-47 | Redline (Field-Tested)');
    assert.equal('stattrakOf' in plain || 'souvenirOf' in plain || 'stattrak' in plain, false);
  });

  test('a Doppler base lists its phases and gems; each variant entry points back', () => {
    const base = byName(cs2, '★ Karambit | Doppler (Factory New)');
    const names = base.variants!.map((variant) => variant.name);
    assert.deepEqual(names.slice(0, 4), ['Phase 1', 'Phase 2', 'Phase 3', 'Phase 4']);
    assert.ok(
      names.includes('Ruby') && names.includes('Sapphire') && names.includes('Black Pearl'),
    );
    const ruby = base.variants!.find((variant) => variant.name === 'Ruby')!;
    assert.equal(ruby.family, 'doppler');
    assert.equal(ruby.phase, undefined);
    const entry = byName(cs2, ruby.marketHashName);
    assert.equal(entry.variantOf, base.id);
    assert.equal(entry.variant, 'Ruby');
    assert.equal(base.paintIndex, undefined);
  });

  test('a container carries no wear or float range', () => {
    const container = cs2.find((record) => record.category === 'container')!;
    assert.equal(container.wear, undefined);
    assert.equal(container.floatRange, undefined);
  });
});

describe('Rust records', () => {
  const CS2_ONLY = [
    'floatRange',
    'wear',
    'wears',
    'stattrak',
    'souvenir',
    'hasStattrak',
    'hasSouvenir',
    'stattrakOf',
    'souvenirOf',
    'paintIndex',
    'variants',
  ];
  test('carry no float, wear, seed, StatTrak or souvenir field', () => {
    for (const record of rust) {
      for (const field of CS2_ONLY)
        assert.equal(field in record, false, `${record.marketHashName}.${field}`);
    }
    assert.deepEqual(Object.keys(byName(rust, 'Tempered AK47')).sort(), [
      'category',
      'id',
      'marketHashName',
      'slug',
      'weapon',
    ]);
  });
});

describe('registry subsets', () => {
  const registries = cs2SchemaRegistries(fullCs2Registries());
  test('only the rarity, collections and containers the records reference', () => {
    const record = byName(cs2, 'StatTrak™ AK-47 | Redline (Field-Tested)');
    const subset = referencedBy(registries, [record]);
    assert.deepEqual(
      subset.rarities.map((rarity) => rarity.key),
      ['classified'],
    );
    assert.deepEqual(Object.keys(subset.collections), record.collections);
    assert.deepEqual(Object.keys(subset.containers), record.containers);
    assert.equal(subset.containers['operation-phoenix-weapon-case']!.kind, 'case');
  });

  test('a record without references gets empty registries', () => {
    const subset = referencedBy(registries, [byName(rust, 'Tempered AK47')]);
    assert.deepEqual(subset, { rarities: [], collections: {}, containers: {} });
  });
});

describe('content hash', () => {
  test('ignores key order, sees every value change', () => {
    const record = learnedRecord('rust', 'New Skin', 'new-skin', 'steamcommunity');
    const reordered = Object.fromEntries(Object.entries(record).reverse()) as SchemaRecord;
    assert.equal(recordHash(reordered), recordHash(record));
    assert.notEqual(recordHash({ ...record, image: 'https://x/1.png' }), recordHash(record));
    assert.notEqual(recordHash({ ...record, slug: 'other' }), recordHash(record));
  });
});
