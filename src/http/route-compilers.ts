/**
 * Route schema compilers shared by every app this process builds: each route's ajv validator
 * and fast-json-stringify serializer is compiled once per process instead of once per app.
 * The service builds one app; tests and benchmarks build many, and compiling the response
 * serializers used to be most of the cost of each (about a second of CPU).
 * Validators: one ajv instance per distinct (shared schemas, ajv options), and per instance one
 * validator per schema text (routes build their parameter schemas anew for every app).
 * Serializers: one per schema object and (shared schemas, options).
 */
import { AjvCompiler } from '@fastify/ajv-compiler';
import SerializerSelector from '@fastify/fast-json-stringify-compiler';

type ValidatorFactory = ReturnType<typeof AjvCompiler>;
type ValidatorCompiler = ReturnType<ValidatorFactory>;
type SerializerFactory = SerializerSelector.SerializerFactory;
type Serializer = SerializerSelector.Serializer;

const validators = new WeakMap<ValidatorCompiler, Map<string, ReturnType<ValidatorCompiler>>>();

/** What Fastify passes a validator compiler (ajv-compiler's typings say a bare schema). */
interface ValidatedPart {
  schema: unknown;
}

function sharedValidators(): ValidatorFactory {
  const factory = AjvCompiler();
  return (externalSchemas, options) => {
    const compile = factory(externalSchemas, options);
    let byText = validators.get(compile);
    if (byText === undefined) validators.set(compile, (byText = new Map()));
    const compiled = byText;
    return (part) => {
      const text = JSON.stringify((part as ValidatedPart).schema);
      let validator = compiled.get(text);
      if (validator === undefined) compiled.set(text, (validator = compile(part)));
      return validator;
    };
  };
}

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
  buildValidator: sharedValidators(),
  buildSerializer: sharedSerializers(),
};
