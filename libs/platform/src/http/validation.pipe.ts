import { ArgumentMetadata, Injectable, ValidationError, ValidationPipe, type Type } from '@nestjs/common';
import { getMetadataStorage } from 'class-validator';
import { AppError } from '../errors/app-error';
import { PLATFORM_ERROR_CODES } from '../errors/error-catalogue';

/**
 * The global request validation: class-validator DTOs, no implicit type
 * coercion (`"5"` is not 5), unknown properties refused, and failures thrown
 * as an {@link AppError} whose message names the offending field.
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
    });
  }

  /**
   * Validates and builds class-validator DTOs; every other value (a path
   * parameter its own pipe parses, the reply) passes untouched, without a
   * round through class-transformer.
   */
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const known = metadata.metatype ? declaredProperties(metadata.metatype) : NO_PROPERTIES;
    if (known.size === 0) return value;
    const code = metadata.type === 'body' ? PLATFORM_ERROR_CODES.invalidBody : PLATFORM_ERROR_CODES.invalidParameter;
    if (!isPlainObject(value)) {
      if (metadata.type === 'body') throw new AppError('invalid', code, 'request body must be a JSON object');
    } else {
      const unknown = unknownProperty(value, known);
      if (unknown !== undefined) throw new AppError('invalid', code, `unknown property '${unknown}'`);
    }
    try {
      return await super.transform(value, metadata);
    } catch (error) {
      if (error instanceof InvalidRequest) throw new AppError('invalid', code, error.message);
      throw error;
    }
  }

  /**
   * Leaves single path and query values as they came: Nest would turn `"1e3"`
   * into 1000 for a `number` parameter. Each parameter's own pipe parses it.
   */
  protected override transformPrimitive(value: unknown): unknown {
    return value;
  }

  override createExceptionFactory() {
    return (errors: ValidationError[] = []) => new InvalidRequest(describe(errors));
  }
}

/** What the exception factory throws; `transform` turns it into the AppError of the request part. */
class InvalidRequest extends Error {}

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
