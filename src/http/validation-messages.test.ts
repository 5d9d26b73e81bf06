import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifySchemaValidationError } from 'fastify';
import { validationMessages } from './validation-messages.ts';

const error = (
  keyword: string,
  instancePath: string,
  params: Record<string, unknown>,
): FastifySchemaValidationError => ({
  keyword,
  instancePath,
  schemaPath: '#',
  params,
  message: 'is bad',
});

describe('validationMessages', () => {
  test('one human sentence per problem', () => {
    assert.deepEqual(
      validationMessages(
        [
          error('maximum', '/perPage', { limit: 100 }),
          error('minimum', '/page', { limit: 1 }),
          error('type', '/page', { type: 'integer' }),
          error('maxLength', '/search', { limit: 512 }),
          error('minLength', '/markets', { limit: 1 }),
          error('enum', '/game', { allowedValues: ['cs2', 'rust'] }),
          error('required', '', { missingProperty: 'game' }),
          error('pattern', '/id', { pattern: 'x' }),
          error('uniqueItems', '/ids', {}),
        ],
        'querystring',
      ),
      [
        'perPage must not exceed 100',
        'page must not be less than 1',
        'page must be an integer number',
        'search must not exceed 512 characters',
        'markets should not be empty',
        'game must be one of: cs2, rust',
        'game is required',
        'id has an invalid format',
        'ids is bad',
      ],
    );
  });

  test('duplicates collapse, union wrappers are dropped, an empty result still says something', () => {
    const twice = error('type', '/page', { type: 'integer' });
    assert.deepEqual(
      validationMessages([twice, twice, error('anyOf', '/page', {})], 'querystring'),
      ['page must be an integer number'],
    );
    assert.deepEqual(validationMessages([error('anyOf', '', {})], 'body'), ['body is invalid']);
  });
});
