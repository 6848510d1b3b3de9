import { Injectable, ValidationPipe, type ArgumentMetadata, type ExecutionContext, type Type } from '@nestjs/common';
import { PARAMTYPES_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { getMetadataStorage, validateSync, type ValidationError, type ValidatorOptions } from 'class-validator';
import { AppError } from '../errors/app-error';
import { PLATFORM_ERROR_CODES } from '../errors/error-catalogue';

/**
 * `@Query() _query: NoQueryParameters` on a route that takes no query
 * parameter: any one is refused (400 invalid_parameter naming it), as on the
 * routes that declare theirs with a DTO.
 */
export class NoQueryParameters {}

/** What the exceptionFactory throws: the pipe names the argument's code. */
class InvalidArgument extends Error {}

/**
 * The global request validation: Nest's ValidationPipe over class-validator
 * DTOs, with no implicit type coercion (`"5"` is not 5), unknown properties
 * refused, the first failure of each property only, and an exceptionFactory
 * that answers in the Error shape with a message naming the offending field:
 * `invalid_body` for a body, `invalid_parameter` for a query.
 *
 * Before Nest's pipe, two checks it does not make: an unknown property is
 * looked for on the raw input, because class-transformer silently drops some
 * keys (`constructor`) before the whitelist could see them; and a body that is
 * not a JSON object is refused as such. Arguments without a DTO (a path
 * parameter its own pipe parses, the reply) pass untouched.
 */
@Injectable()
export class RequestValidationPipe extends ValidationPipe {
  constructor() {
    super({
      transform: true,
      transformOptions: { enableImplicitConversion: false },
      whitelist: true,
      forbidNonWhitelisted: true,
      forbidUnknownValues: true,
      stopAtFirstError: true,
      validationError: { target: false, value: false },
      exceptionFactory: (errors: ValidationError[]) => new InvalidArgument(describe(errors)),
    });
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const dto = metadata.metatype;
    // Validated already, before Nest's pipes ran (see validateBodyOf()).
    if (dto && value instanceof dto) return value;
    if (dto === NoQueryParameters) {
      const unknown = isPlainObject(value) ? unknownProperty(value, NO_PROPERTIES) : undefined;
      if (unknown !== undefined)
        throw new AppError('invalid', PLATFORM_ERROR_CODES.invalidParameter, `unknown property '${unknown}'`);
      return value;
    }
    const known = dto ? declaredProperties(dto) : NO_PROPERTIES;
    // No DTO (a path parameter its own pipe parsed, the reply) passes untouched; a body DTO that declares no
    // property (a module's first, bare one) takes a JSON object without any.
    if (!dto || NOT_DTOS.has(dto) || (known.size === 0 && metadata.type !== 'body')) return value;
    const code = metadata.type === 'body' ? PLATFORM_ERROR_CODES.invalidBody : PLATFORM_ERROR_CODES.invalidParameter;
    if (!isPlainObject(value)) {
      if (metadata.type === 'body') throw new AppError('invalid', code, 'request body must be a JSON object');
      return value;
    }
    const unknown = unknownProperty(value, known);
    if (unknown !== undefined) throw new AppError('invalid', code, `unknown property '${unknown}'`);
    // class-validator refuses an object of a class it has no rule for (forbidUnknownValues).
    if (known.size === 0) return value;
    try {
      return await super.transform(value, metadata);
    } catch (error) {
      if (error instanceof InvalidArgument) throw new AppError('invalid', code, error.message);
      throw error;
    }
  }

  /**
   * class-validator's synchronous validation: the DTOs have no asynchronous
   * rule, and the promises of `validate()` cost a keyed create about a tenth
   * of its CPU (docs/decisions/0018-one-request-pipeline.md).
   */
  protected override validate(object: object, options?: ValidatorOptions): ValidationError[] {
    return validateSync(object, options);
  }

  /**
   * Validates a request's body against its handler's `@Body()` DTO now, for a
   * step that must refuse an invalid body before Nest's pipes run (the
   * idempotency interceptor, before its transaction). Returns the DTO, which
   * the pipe then passes on untouched.
   */
  validateBodyOf(context: ExecutionContext, body: unknown): Promise<unknown> {
    const metatype = bodyTypeOf(context.getClass(), context.getHandler());
    return metatype ? this.transform(body, { type: 'body', metatype }) : Promise.resolve(body);
  }
}

const bodyTypes = new WeakMap<object, Type<unknown> | undefined>();

/** The class of a handler's `@Body()` parameter, read from Nest's metadata once per handler. */
function bodyTypeOf(
  controller: Type<unknown>,
  handler: ReturnType<ExecutionContext['getHandler']>,
): Type<unknown> | undefined {
  if (bodyTypes.has(handler)) return bodyTypes.get(handler);
  const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, handler.name) ?? {}) as Record<
    string,
    { index: number; data?: unknown }
  >;
  const types = (Reflect.getMetadata(PARAMTYPES_METADATA, controller.prototype as object, handler.name) ?? []) as Array<
    Type<unknown> | undefined
  >;
  const body = Object.entries(args).find(
    ([key, arg]) => key.startsWith(`${RouteParamtypes.BODY}:`) && arg.data === undefined,
  );
  const type = body ? types[body[1].index] : undefined;
  bodyTypes.set(handler, type);
  return type;
}

/**
 * The first property of `value` that the DTO does not declare. Checked on the
 * raw input because class-transformer silently drops some keys (`constructor`)
 * before the whitelist could see them.
 */
function unknownProperty(value: Record<string, unknown>, known: ReadonlySet<string>): string | undefined {
  for (const key in value) if (!known.has(key)) return key;
  return undefined;
}

const NO_PROPERTIES: ReadonlySet<string> = new Set();

/** The types an argument has that are not DTOs, as Nest's own ValidationPipe skips them. */
const NOT_DTOS: ReadonlySet<unknown> = new Set([String, Boolean, Number, BigInt, Array, Object, Buffer, Date]);
const declared = new WeakMap<Type<unknown>, ReadonlySet<string>>();

/** The properties a DTO class declares, read from class-validator's metadata once per class. */
function declaredProperties(metatype: Type<unknown>): ReadonlySet<string> {
  let known = declared.get(metatype);
  if (!known) {
    known = new Set(
      getMetadataStorage()
        .getTargetValidationMetadatas(metatype, '', true, false)
        .map((rule) => rule.propertyName),
    );
    declared.set(metatype, known);
  }
  return known;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** "limit must be an integer from 1 to 100; unknown property 'colour'" */
function describe(errors: ValidationError[], parent = ''): string {
  return errors
    .flatMap((error) => {
      const path = parent ? `${parent}.${error.property}` : error.property;
      const constraints = Object.entries(error.constraints ?? {});
      const own = constraints.map(([name, message]) =>
        name === 'whitelistValidation' ? `unknown property '${path}'` : message,
      );
      const nested = error.children?.length ? [describe(error.children, path)] : [];
      return [...own, ...nested];
    })
    .join('; ');
}
