/**
 * Route schema compilers shared by every app this process builds: each route's ajv validator
 * and fast-json-stringify serializer is compiled once per process instead of once per app.
 * The service builds one app; tests and benchmarks build many, and compiling the response
 * serializers used to be most of the cost of each (about a second of CPU).
 * Validators: one ajv instance per distinct (shared schemas, ajv options), which caches what it
 * compiled by schema object. Serializers: cached by schema object and (shared schemas, options).
 */
import { AjvCompiler } from '@fastify/ajv-compiler';
import SerializerSelector from '@fastify/fast-json-stringify-compiler';

type SerializerFactory = SerializerSelector.SerializerFactory;
type Serializer = SerializerSelector.Serializer;

const serializers = new WeakMap<object, Map<string, Serializer>>();

function sharedSerializers(): SerializerFactory {
  const factory = SerializerSelector();
  return (externalSchemas, options) => {
    const compile = factory(externalSchemas, options);
    const context = JSON.stringify([externalSchemas ?? null, options ?? null]);
    return (route) => {
      if (typeof route.schema !== 'object' || route.schema === null) return compile(route);
      let bySchema = serializers.get(route.schema);
      if (bySchema === undefined) serializers.set(route.schema, (bySchema = new Map()));
      let serializer = bySchema.get(context);
      if (serializer === undefined) bySchema.set(context, (serializer = compile(route)));
      return serializer;
    };
  };
}

export const sharedCompilers = {
  buildValidator: AjvCompiler(),
  buildSerializer: sharedSerializers(),
};
