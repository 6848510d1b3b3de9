import { Injectable, ValidationPipe, type ArgumentMetadata, type ExecutionContext } from '@nestjs/common';
import { validateSync, type ValidationError, type ValidatorOptions } from 'class-validator';
import { AppError, PLATFORM_ERROR_CODES } from '@app/platform';
import { bodyOf } from './body.decorator';
import { NOT_DTOS, NO_PROPERTIES, declaredProperties, isPlainObject, unknownProperty } from './dto-properties';

/**
 * `@Query() _query: NoQueryParameters` on a route that takes no query
 * parameter: any one is refused (400 invalid_parameter naming it), as on the
 * routes that declare theirs with a DTO.
 */
export class NoQueryParameters {}

/** Why a body that is not a JSON object is refused: missing (no content at all), or of another JSON type. */
function BODY_SHAPE_MESSAGE(value: unknown): string {
  return value === undefined ? 'request body is missing: send a JSON object' : 'request body must be a JSON object';
}

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
    // No DTO (a path parameter its own pipe parsed, the reply) passes untouched; a body DTO that declares no
    // property (a module's first, bare one) takes a JSON object without any.
    if (!dto || NOT_DTOS.has(dto)) return value;
    const known = declaredProperties(dto);
    if (known.size === 0 && metadata.type !== 'body') return value;
    const code = metadata.type === 'body' ? PLATFORM_ERROR_CODES.invalidBody : PLATFORM_ERROR_CODES.invalidParameter;
    if (!isPlainObject(value)) {
      if (metadata.type === 'body') throw new AppError('invalid', code, BODY_SHAPE_MESSAGE(value));
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
    const metatype = bodyOf(context.getHandler())?.type;
    return metatype ? this.transform(body, { type: 'body', metatype }) : Promise.resolve(body);
  }
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
