import { Injectable, PipeTransform } from '@nestjs/common';
import { AppError, PLATFORM_ERROR_CODES } from '@app/platform';

/**
 * `petId` as written in the path: optional minus and decimal digits only, so
 * `1e3`, `0x10` or `1.5` are refused rather than read as some other number.
 * Out-of-range integers pass and are simply not found.
 */
@Injectable()
export class PetIdPipe implements PipeTransform<string, number> {
  transform(value: string): number {
    if (!/^-?\d+$/.test(value)) {
      throw new AppError('invalid', PLATFORM_ERROR_CODES.invalidParameter, 'petId must be a decimal integer');
    }
    return Number(value);
  }
}
