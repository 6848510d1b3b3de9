import { Injectable, type ArgumentMetadata, type PipeTransform } from '@nestjs/common';
import { AppError } from '../errors/app-error';
import { PLATFORM_ERROR_CODES } from '../errors/error-catalogue';

/**
 * An int64 identifier in a path (`@Param('orderId', IntegerIdPipe)`), as
 * written: an optional minus and decimal digits only, so `1e3`, `0x10` or
 * `1.5` are refused rather than read as some other number. It becomes a
 * `bigint`, so no value is ever rounded: `9007199254740993` stays itself and
 * is reported as not found under its own name, not as its neighbour.
 */
@Injectable()
export class IntegerIdPipe implements PipeTransform<string, bigint> {
  transform(value: string, metadata: ArgumentMetadata): bigint {
    if (!/^-?\d+$/.test(value)) {
      throw new AppError(
        'invalid',
        PLATFORM_ERROR_CODES.invalidParameter,
        `${metadata.data ?? 'the id'} must be a decimal integer`,
      );
    }
    return BigInt(value);
  }
}
