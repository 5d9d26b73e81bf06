/**
 * Checks a JSON value against a type written in the notation of sdk-types.json: named types
 * (objects of fields, `?` marking an optional one) and aliases, `string`, `number`, `boolean`,
 * `null`, `unknown`, `iso` (a string `Date.parse` reads), quoted string literals, number
 * literals, `A|B`, `T[]`, `Record<T>` (an object of T keyed by string) and `never`. Fields the
 * type does not name are allowed, as TypeScript's structural types allow them. A mismatch names
 * the JSON path, the field's owner (`Type.field`) and what was expected and found; a field with
 * an accepted difference (`allowed`, keyed `Type.field`) may also hold that notation's values.
 */
export interface TypeTable {
  aliases: Record<string, string>;
  types: Record<string, Record<string, string>>;
}

export interface Mismatch {
  path: string;
  owner: string;
  expected: string;
  found: string;
}

export interface CheckOptions {
  /** `Type.field` → a notation the field may hold besides its own type. */
  allowed?: Readonly<Record<string, string>>;
  /** Called with `Type.field` when a value is accepted only through `allowed`. */
  onAllowed?: (owner: string) => void;
}

/** Splits `text` at top-level `|` (outside parentheses and angle brackets). */
function alternatives(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index];
    if (char === '(' || char === '<') depth += 1;
    else if (char === ')' || char === '>') depth -= 1;
    else if (char === '|' && depth === 0) {
      parts.push(text.slice(start, index).trim());
      start = index + 1;
    }
  }
  parts.push(text.slice(start).trim());
  return parts;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'string')
    return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (typeof value === 'object') return 'object';
  return `${typeof value} ${String(value)}`;
}

type Kind = 'object' | 'array' | 'scalar';

const kindOf = (value: unknown): Kind =>
  Array.isArray(value)
    ? 'array'
    : value !== null && typeof value === 'object'
      ? 'object'
      : 'scalar';

export class ShapeChecker {
  constructor(
    private readonly table: TypeTable,
    private readonly options: CheckOptions = {},
  ) {}

  /** Mismatches of `value` against the notation `type` (empty when it conforms). */
  check(value: unknown, type: string, path = '$', owner = type): Mismatch[] {
    const options = alternatives(type);
    if (options.length === 1) return this.term(value, options[0]!, path, owner);
    const results = options.map((option) => this.term(value, option, path, owner));
    if (results.some((result) => result.length === 0)) return [];
    const sameKind = options.findIndex((option) => this.kindOfTerm(option) === kindOf(value));
    if (sameKind >= 0 && kindOf(value) !== 'scalar') return results[sameKind]!;
    return [{ path, owner, expected: type, found: describe(value) }];
  }

  private kindOfTerm(term: string): Kind {
    if (term.endsWith('[]')) return 'array';
    if (term.startsWith('Record<') || term in this.table.types) return 'object';
    if (term in this.table.aliases) return this.kindOfTerm(this.table.aliases[term]!);
    if (term.startsWith('(')) return this.kindOfTerm(term.slice(1, -1));
    return 'scalar';
  }

  private term(value: unknown, term: string, path: string, owner: string): Mismatch[] {
    const fail = (): Mismatch[] => [{ path, owner, expected: term, found: describe(value) }];
    if (term.endsWith('[]')) {
      if (!Array.isArray(value)) return fail();
      const element = term.slice(0, -2);
      return value.flatMap((entry, index) =>
        this.check(entry, element, `${path}[${index}]`, owner),
      );
    }
    if (term.startsWith('(') && term.endsWith(')'))
      return this.check(value, term.slice(1, -1), path, owner);
    if (term.startsWith('Record<') && term.endsWith('>')) {
      if (kindOf(value) !== 'object') return fail();
      const element = term.slice('Record<'.length, -1);
      return Object.entries(value as object).flatMap(([key, entry]) =>
        this.check(entry, element, `${path}[${JSON.stringify(key)}]`, owner),
      );
    }
    if (term.startsWith("'") && term.endsWith("'"))
      return value === term.slice(1, -1) ? [] : fail();
    if (/^-?\d+(\.\d+)?$/.test(term)) return value === Number(term) ? [] : fail();
    if (term in this.table.aliases)
      return this.check(value, this.table.aliases[term]!, path, owner);
    if (term in this.table.types) return this.object(value, term, path);
    return this.primitive(value, term) ? [] : fail();
  }

  private primitive(value: unknown, term: string): boolean {
    switch (term) {
      case 'string':
        return typeof value === 'string';
      case 'iso':
        return typeof value === 'string' && !Number.isNaN(Date.parse(value));
      case 'number':
        return typeof value === 'number' && Number.isFinite(value);
      case 'boolean':
        return typeof value === 'boolean';
      case 'null':
        return value === null;
      case 'unknown':
        return true;
      case 'never':
        return false;
      default:
        throw new Error(`unknown type ${term}`);
    }
  }

  private object(value: unknown, name: string, path: string): Mismatch[] {
    if (kindOf(value) !== 'object')
      return [{ path, owner: name, expected: name, found: describe(value) }];
    const record = value as Record<string, unknown>;
    const mismatches: Mismatch[] = [];
    for (const [declared, type] of Object.entries(this.table.types[name]!)) {
      const optional = declared.endsWith('?');
      const field = optional ? declared.slice(0, -1) : declared;
      const owner = `${name}.${field}`;
      const fieldPath = `${path}.${field}`;
      if (!(field in record)) {
        if (!optional)
          mismatches.push({ path: fieldPath, owner, expected: type, found: 'missing' });
        continue;
      }
      mismatches.push(...this.field(record[field], type, fieldPath, owner));
    }
    return mismatches;
  }

  private field(value: unknown, type: string, path: string, owner: string): Mismatch[] {
    const own = this.check(value, type, path, owner);
    const allowed = this.options.allowed?.[owner];
    if (own.length === 0 || allowed === undefined) return own;
    if (this.check(value, allowed, path, owner).length > 0) return own;
    this.options.onAllowed?.(owner);
    return [];
  }
}
