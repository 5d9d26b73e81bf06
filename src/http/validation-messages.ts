/**
 * Turns ajv validation errors into the human sentences clients see in a 400's `message`
 * array, e.g. `perPage must not exceed 100` or `game must be one of: cs2, rust`.
 */
import type { FastifySchemaValidationError } from 'fastify';
import { INTEGER_WORDS, sentence } from '../domain/parameter-sentences.ts';

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
  integer: INTEGER_WORDS,
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
      return sentence.required(name);
    case 'type': {
      const wanted = String(params.type).split(',')[0] ?? '';
      return sentence.mustBe(name, TYPE_WORDS[wanted] ?? wanted);
    }
    case 'maximum':
      return sentence.notAbove(name, params.limit);
    case 'minimum':
      return sentence.notBelow(name, params.limit);
    case 'exclusiveMaximum':
      return sentence.below(name, params.limit);
    case 'exclusiveMinimum':
      return sentence.above(name, params.limit);
    case 'maxLength':
      return sentence.notLongerThan(name, params.limit);
    case 'minLength':
      return params.limit === 1
        ? sentence.notEmpty(name)
        : `${name} must be at least ${String(params.limit)} characters long`;
    case 'maxItems':
      return `${name} must contain no more than ${String(params.limit)} elements`;
    case 'minItems':
      return `${name} must contain at least ${String(params.limit)} elements`;
    case 'enum':
      return sentence.oneOf(name, params.allowedValues as unknown[]);
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
