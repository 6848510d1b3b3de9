import { Injectable, type ArgumentMetadata, type PipeTransform } from '@nestjs/common';
import { ValidateBy } from 'class-validator';
import { AppError, PLATFORM_ERROR_CODES } from '@app/platform';

export const INT64_MIN = -(2n ** 63n);
export const INT64_MAX = 2n ** 63n - 1n;

/** What an id in a request must be: the one rule for path ids and cursors alike. */
export const INT64_RULE = `an integer from ${INT64_MIN} to ${INT64_MAX}`;

/**
 * An int64 written as a request writes an id: an optional minus and decimal
 * digits only, within int64, or `undefined`. `1e3`, `0x10` and `1.5` are not
 * read as some other number, and no value is rounded: `9007199254740993`
 * stays itself.
 */
export function parseInt64(text: string): bigint | undefined {
  if (!/^-?\d{1,19}$/.test(text)) return undefined;
  const value = BigInt(text);
  return value >= INT64_MIN && value <= INT64_MAX ? value : undefined;
}

/**
 * The class-validator rule of an int64 in a body or a query: a `number`
 * (exact below 2^53) or a `bigint` (what a JSON body's integer past 2^53 is
 * parsed into, and a cursor's parse gives), within int64. Anything else, a
 * fraction or a string of digits included, is refused with `message`.
 */
export const IsInt64 = (message: string): PropertyDecorator =>
  ValidateBy({ name: 'isInt64', validator: { validate: isInt64, defaultMessage: () => message } });

function isInt64(value: unknown): boolean {
  if (typeof value === 'number') return Number.isSafeInteger(value);
  return typeof value === 'bigint' && value >= INT64_MIN && value <= INT64_MAX;
}

/**
 * An int64 identifier in a path (`@Param('orderId', IntegerIdPipe)`), as a
 * `bigint`: anything that is not one (over-long digits included) is a 400
 * naming the parameter; any int64 is looked up, so an id no row has is a 404.
 */
@Injectable()
export class IntegerIdPipe implements PipeTransform<string, bigint> {
  transform(value: string, metadata: ArgumentMetadata): bigint {
    const id = parseInt64(value);
    if (id === undefined) {
      throw new AppError(
        'invalid',
        PLATFORM_ERROR_CODES.invalidParameter,
        `${metadata.data ?? 'the id'} must be ${INT64_RULE}`,
      );
    }
    return id;
  }
}
