import { applyDecorators, type Type } from '@nestjs/common';
import { RouteSchema } from '@nestjs/platform-fastify';
import { ApiExtraModels, ApiResponse, DECORATORS, getSchemaPath, type ApiResponseOptions } from '@nestjs/swagger';

type JsonSchema = Record<string, unknown>;

/** Where @nestjs/swagger keeps what `@ApiProperty()` says (the metadata keys it exports). */
const { API_MODEL_PROPERTIES_ARRAY: PROPERTY_NAMES, API_MODEL_PROPERTIES: PROPERTY_OPTIONS } = DECORATORS;

/**
 * A success response, declared once from its DTO: the OpenAPI entry and the schema Fastify serializes it with
 * (fast-json-stringify, faster than JSON.stringify), both from `@ApiProperty()`. Only the
 * properties the DTO declares can ever leave the service. An answer no class describes (a map of counts by name)
 * gives its JSON schema instead of a DTO, used for both.
 */
export function Responds(
  status: number,
  type: Type | JsonSchema,
  options: {
    description: string;
    isArray?: boolean;
    /** An array's most items (a page's largest size). */
    maxItems?: number;
    headers?: ApiResponseOptions['headers'];
  },
): MethodDecorator {
  const { isArray, maxItems, ...response } = options;
  if (typeof type !== 'function') {
    return applyDecorators(
      ApiResponse({ status, ...response, schema: type } as ApiResponseOptions),
      withResponseSchema(status, type),
    );
  }
  const schema = serializationSchemaOf(type);
  const documented = isArray
    ? ApiResponse({ status, ...response, schema: { type: 'array', items: { $ref: getSchemaPath(type) }, maxItems } })
    : ApiResponse({ status, type, ...response });
  return applyDecorators(
    ApiExtraModels(type),
    documented,
    withResponseSchema(status, isArray ? { type: 'array', items: schema } : schema),
  );
}

/** The JSON schema of a DTO's `@ApiProperty()` properties, for serialization. */
export function serializationSchemaOf(type: Type): JsonSchema {
  const prototype = type.prototype as object;
  const names = ((Reflect.getMetadata(PROPERTY_NAMES, prototype) ?? []) as string[]).map((name) => name.slice(1));
  if (names.length === 0) throw new Error(`${type.name} declares no @ApiProperty(): nothing to serialize`);
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const name of names) {
    const options = Reflect.getMetadata(PROPERTY_OPTIONS, prototype, name) as PropertyOptions;
    properties[name] = propertySchema(options, Reflect.getMetadata('design:type', prototype, name));
    if (options.required !== false) required.push(name);
  }
  return { type: 'object', properties, required };
}

interface PropertyOptions {
  type?: unknown;
  enum?: unknown[] | Record<string, unknown>;
  isArray?: boolean;
  required?: boolean;
}

function propertySchema(options: PropertyOptions, designType: unknown): JsonSchema {
  const item = itemSchema(options, options.type ?? designType);
  return options.isArray ? { type: 'array', items: item } : item;
}

function itemSchema(options: PropertyOptions, type: unknown): JsonSchema {
  if (options.enum) {
    const values = Array.isArray(options.enum) ? options.enum : Object.values(options.enum);
    return { type: values.every((value) => typeof value === 'number') ? 'number' : 'string' };
  }
  if (typeof type === 'string') return { type };
  if (type === String || type === Date) return { type: 'string' };
  if (type === Number) return { type: 'number' };
  if (type === Boolean) return { type: 'boolean' };
  if (typeof type === 'function') return serializationSchemaOf(type as Type);
  throw new Error(`cannot derive a serialization schema for a property of type ${String(type)}`);
}

/** The response schemas a route's `@Responds()` gave its handler so far, by status. */
const RESPONSE_SCHEMAS = Symbol('response schemas');

/**
 * Adds one status's schema to the route's Fastify response schemas, keeping the others: given to Fastify through
 * `@RouteSchema()`, each time with every status declared so far.
 */
function withResponseSchema(status: number, schema: JsonSchema): MethodDecorator {
  return (target, key, descriptor: PropertyDescriptor) => {
    const handler = descriptor.value as object;
    const response = { ...(Reflect.getMetadata(RESPONSE_SCHEMAS, handler) as object | undefined), [status]: schema };
    Reflect.defineMetadata(RESPONSE_SCHEMAS, response, handler);
    RouteSchema({ response })(target, key, descriptor);
  };
}
