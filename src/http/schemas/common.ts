/**
 * Shared TypeBox building blocks: nullable fields (JSON Schema type arrays, which OpenAPI 3.1
 * and fast-json-stringify both understand), string enums, timestamps and the error envelope.
 */
import { Type, type Static, type TObject, type TProperties, type TSchema } from '@sinclair/typebox';

export const Timestamp = (description?: string) =>
  Type.String({ format: 'date-time', ...(description ? { description } : {}) });

/** `T | null` for a schema with a single `type`. */
export function Nullable<T extends TSchema>(schema: T) {
  return Type.Unsafe<Static<T> | null>({ ...schema, type: [schema.type as string, 'null'] });
}

export function NullableObject<P extends TProperties>(properties: P, description?: string) {
  const object: TObject<P> = Type.Object(properties);
  return Type.Unsafe<Static<TObject<P>> | null>({
    ...object,
    type: ['object', 'null'],
    ...(description ? { description } : {}),
  });
}

export function StringEnum<const T extends readonly string[]>(values: T, description?: string) {
  return Type.Unsafe<T[number]>({
    type: 'string',
    enum: [...values],
    ...(description ? { description } : {}),
  });
}

export const ErrorEnvelope = Type.Object(
  {
    statusCode: Type.Integer(),
    message: Type.Union([Type.String(), Type.Array(Type.String())], {
      description: 'A sentence, or for validation errors an array of sentences.',
    }),
    error: Type.String({ description: 'HTTP status text, e.g. "Bad Request".' }),
    code: Type.String({ description: 'Machine-readable code, e.g. INVALID_PARAMETER.' }),
  },
  { description: 'The one error envelope (NestJS shape plus `code`).' },
);

/** Error responses for a route's schema, keyed by status. */
export function errorResponses(...statuses: number[]): Record<number, typeof ErrorEnvelope> {
  return Object.fromEntries(statuses.map((status) => [status, ErrorEnvelope]));
}

export const KEY_GATED_ERRORS = [400, 401, 403, 404, 429, 500] as const;

export const GameQuery = StringEnum(
  ['cs2', 'rust'] as const,
  'Game: cs2 or rust (required on /v2).',
);

export const MarketsQuery = Type.String({
  description:
    'Comma-separated market ids of the game. Unknown ids give 400 naming the valid ones; an empty list gives 400.',
});
