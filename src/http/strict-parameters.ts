/**
 * Strict typing of query-string and path parameters. Ajv runs without type coercion; this
 * module alone turns a parameter's text into the number or boolean its schema declares, and
 * only when the text is plain: integers `-?[0-9]+`, numbers `-?[0-9]+(.[0-9]+)?`, booleans
 * `true` / `false`. Anything else (`0x10`, `1e2`, `+5`, ` 5`, `Infinity`, `NaN`, empty) stays
 * text, so the schema's type check refuses it with its usual sentence
 * (`perPage must be an integer number`); a number too large for a double fails the same way,
 * and every other number meets the schema's minimum and maximum. Installed once for every
 * route by `installStrictParameters` (an onRoute hook adding a preValidation step).
 */
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';

export type ParameterKind = 'integer' | 'number' | 'boolean';

type Plan = ReadonlyMap<string, ParameterKind>;

const PLAIN: Readonly<Record<ParameterKind, RegExp>> = {
  integer: /^-?[0-9]+$/,
  number: /^-?[0-9]+(?:\.[0-9]+)?$/,
  boolean: /^(?:true|false)$/,
};

/** The typed value of `text`, or undefined when it is not in plain form. */
export function parsePlain(kind: ParameterKind, text: string): number | boolean | undefined {
  if (!PLAIN[kind].test(text)) return undefined;
  if (kind === 'boolean') return text === 'true';
  const value = Number(text);
  return Number.isFinite(value) ? value : undefined;
}

type JsonSchema = { type?: unknown; anyOf?: unknown; oneOf?: unknown; properties?: unknown };

function declaredTypes(schema: JsonSchema): string[] {
  const own = Array.isArray(schema.type) ? schema.type : [schema.type];
  const members = [schema.anyOf, schema.oneOf].flatMap((list) => (Array.isArray(list) ? list : []));
  return [...own, ...members.flatMap((member) => declaredTypes(member as JsonSchema))].filter(
    (type): type is string => typeof type === 'string',
  );
}

/** The kind a property is parsed as; none when it accepts text or is no scalar. */
function kindOf(schema: JsonSchema): ParameterKind | undefined {
  const types = declaredTypes(schema);
  if (types.includes('string')) return undefined;
  return (['integer', 'number', 'boolean'] as const).find((kind) => types.includes(kind));
}

/** Property name → kind, for the typed properties of an object schema. */
export function parameterPlan(schema: unknown): Plan {
  const properties = (schema as JsonSchema | undefined)?.properties;
  const plan = new Map<string, ParameterKind>();
  if (typeof properties !== 'object' || properties === null) return plan;
  for (const [name, property] of Object.entries(properties)) {
    const kind = kindOf(property as JsonSchema);
    if (kind) plan.set(name, kind);
  }
  return plan;
}

function applyPlan(values: unknown, plan: Plan): void {
  if (typeof values !== 'object' || values === null) return;
  const record = values as Record<string, unknown>;
  for (const [name, kind] of plan) {
    const text = record[name];
    if (typeof text !== 'string') continue;
    const value = parsePlain(kind, text);
    if (value !== undefined) record[name] = value;
  }
}

function strictStep(query: Plan, params: Plan) {
  return async (request: FastifyRequest): Promise<void> => {
    applyPlan(request.query, query);
    applyPlan(request.params, params);
  };
}

function addPreValidation(route: RouteOptions, step: ReturnType<typeof strictStep>): void {
  const existing = route.preValidation;
  const list = existing === undefined ? [] : Array.isArray(existing) ? existing : [existing];
  route.preValidation = [step, ...list];
}

/** Adds the strict parsing step to every route registered after this call. */
export function installStrictParameters(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const query = parameterPlan(route.schema?.querystring);
    const params = parameterPlan(route.schema?.params);
    if (query.size === 0 && params.size === 0) return;
    addPreValidation(route, strictStep(query, params));
  });
}
