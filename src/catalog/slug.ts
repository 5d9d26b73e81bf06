/**
 * URL-safe slugs: lowercase ASCII letters, digits and single hyphens, derived from the
 * market hash name (`★ StatTrak™ Karambit | Doppler (Factory New)` →
 * `stattrak-karambit-doppler-factory-new`). Uniqueness is settled by `finalizeItems`.
 */
export function slugify(name: string): string {
  const spaced = name.replace(/[™★]/g, ' ');
  const plain = /^[\x20-\x7e]*$/.test(spaced)
    ? spaced
    : spaced.normalize('NFKD').replace(/\p{M}+/gu, '');
  const ascii = plain
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return ascii === '' ? 'item' : ascii;
}
