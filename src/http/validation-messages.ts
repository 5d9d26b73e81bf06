/**
 * Turns ajv validation errors into the human sentences clients see in a 400's `message`
 * array, e.g. `perPage must not exceed 100` or `game must be one of: cs2, rust`.
 */
import type { FastifySchemaValidationError } from 'fastify';

type Params = Record<string, unknown>;

function propertyName(error: FastifySchemaValidationError, context: string): string {
  const params = error.params as Params;
  const path = error.instancePath
    .split('/')
    .filter((part) => part.length > 0)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (error.keyword === 'required' && typeof params.missingProperty === 'string') {
    path.push(params.missingProperty);
  }
  return path.length > 0 ? path.join('.') : context;
}

const TYPE_WORDS: Readonly<Record<string, string>> = {
  integer: 'an integer number',
  number: 'a number',
  string: 'a string',
  boolean: 'a boolean value',
  array: 'an array',
  object: 'an object',
};

function describe(error: FastifySchemaValidationError, name: string): string {
  const params = error.params as Params;
  switch (error.keyword) {
    case 'required':
      return `${name} is required`;
    case 'type': {
      const wanted = String(params.type).split(',')[0] ?? '';
      return `${name} must be ${TYPE_WORDS[wanted] ?? wanted}`;
    }
    case 'maximum':
      return `${name} must not exceed ${String(params.limit)}`;
    case 'minimum':
      return `${name} must not be less than ${String(params.limit)}`;
    case 'exclusiveMaximum':
      return `${name} must be less than ${String(params.limit)}`;
    case 'exclusiveMinimum':
      return `${name} must be greater than ${String(params.limit)}`;
    case 'maxLength':
      return `${name} must not exceed ${String(params.limit)} characters`;
    case 'minLength':
      return params.limit === 1
        ? `${name} should not be empty`
        : `${name} must be at least ${String(params.limit)} characters long`;
    case 'maxItems':
      return `${name} must contain no more than ${String(params.limit)} elements`;
    case 'minItems':
      return `${name} must contain at least ${String(params.limit)} elements`;
    case 'enum':
      return `${name} must be one of: ${(params.allowedValues as unknown[]).join(', ')}`;
    case 'const':
      return `${name} must be equal to ${String(params.allowedValue)}`;
    case 'pattern':
    case 'format':
      return `${name} has an invalid format`;
    case 'additionalProperties':
      return `property ${String(params.additionalProperty)} should not exist`;
    default:
      return `${name} ${error.message ?? 'is invalid'}`;
  }
}

const CONTEXT_NAMES: Readonly<Record<string, string>> = {
  querystring: 'query',
  params: 'path',
  body: 'body',
  headers: 'headers',
};

/** One sentence per distinct problem, in ajv's order. */
export function validationMessages(
  errors: readonly FastifySchemaValidationError[],
  context: string | undefined,
): string[] {
  const where = CONTEXT_NAMES[context ?? ''] ?? 'request';
  const sentences = errors
    .filter((error) => error.keyword !== 'anyOf' && error.keyword !== 'oneOf')
    .map((error) => describe(error, propertyName(error, where)));
  const unique = [...new Set(sentences)];
  return unique.length > 0 ? unique : [`${where} is invalid`];
}
