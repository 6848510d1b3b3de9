// <sample>
import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsDefined, IsIn, IsInt, IsString, Length, Max, Min, ValidateIf } from 'class-validator';
import { INT64_RULE, IsInt64 } from '@app/validation';
import { __EACH:string(__THING_____FIELD___MAX_LENGTH)__, __EACH:int(__THING_____FIELD___MIN, __THING_____FIELD___MAX)__ } from '../../domain/__thing-kebab__';
// <each field>
// <enum>
import { __THING_____FIELD___VALUES, type __Thing____Field__Value } from '../../domain/__thing-kebab__-__field-kebab__';
// </enum>
// </each>

// </sample>
// <bare>
import { ApiSchema } from '@nestjs/swagger';

// </bare>

/** The body of `POST /v1/__route__`. Types are never coerced; unknown properties are refused. */
@ApiSchema({ name: 'New__Thing__', description: '__A_thing__ to add. Unknown properties are refused.' })
export class Create__Thing__Dto {
// <sample>
// <each field>
// <string>
  @__ApiProperty__({ minLength: __min__, maxLength: __THING_____FIELD___MAX_LENGTH, example: '__example__' })
  // class-validator checks the lowest decorator first, and stops at the first failure.
// <required>
  @IsDefined({ message: '__field__ is required' })
// </required>
// <optional>
  @ValidateIf((body: Create__Thing__Dto) => body.__field__ !== undefined)
// </optional>
  @Length(__min__, __THING_____FIELD___MAX_LENGTH, { message: `__field__ must be __min__ to ${__THING_____FIELD___MAX_LENGTH} characters long` })
  @IsString({ message: '__field__ must be a string' })
  __field____optional__: string;
// </string>
// <int>
  @__ApiProperty__({ type: 'integer', minimum: __THING_____FIELD___MIN, maximum: __THING_____FIELD___MAX, example: __example__ })
// <required>
  @IsDefined({ message: '__field__ is required' })
// </required>
// <optional>
  @ValidateIf((body: Create__Thing__Dto) => body.__field__ !== undefined)
// </optional>
  @Max(__THING_____FIELD___MAX, { message: `__field__ must be an integer from ${__THING_____FIELD___MIN} to ${__THING_____FIELD___MAX}` })
  @Min(__THING_____FIELD___MIN, { message: `__field__ must be an integer from ${__THING_____FIELD___MIN} to ${__THING_____FIELD___MAX}` })
  @IsInt({ message: `__field__ must be an integer from ${__THING_____FIELD___MIN} to ${__THING_____FIELD___MAX}` })
  __field____optional__: number;
// </int>
// <int64>
  @__ApiProperty__({ type: 'integer', format: 'int64', example: 1 })
// <required>
  @IsDefined({ message: '__field__ is required' })
// </required>
// <optional>
  @ValidateIf((body: Create__Thing__Dto) => body.__field__ !== undefined)
// </optional>
  @IsInt64(`__field__ must be ${INT64_RULE}`)
  __field____optional__: number | bigint;
// </int64>
// <enum>
// <defaulted>
  @ApiPropertyOptional({ enum: __THING_____FIELD___VALUES, enumName: '__Thing____Field__', default: '__default__' })
  @ValidateIf((body: Create__Thing__Dto) => body.__field__ !== undefined)
// </defaulted>
// <required>
  @ApiProperty({ enum: __THING_____FIELD___VALUES, enumName: '__Thing____Field__' })
  @IsDefined({ message: '__field__ is required' })
// </required>
// <optional>
  @ApiPropertyOptional({ enum: __THING_____FIELD___VALUES, enumName: '__Thing____Field__' })
  @ValidateIf((body: Create__Thing__Dto) => body.__field__ !== undefined)
// </optional>
  @IsIn(__THING_____FIELD___VALUES, { message: `__field__ must be one of ${__THING_____FIELD___VALUES.join(', ')}` })
// <defaulted>
  __field__?: __Thing____Field__Value;
// </defaulted>
// <optional>
  __field__?: __Thing____Field__Value;
// </optional>
// <required>
  __field__: __Thing____Field__Value;
// </required>
// </enum>

// </each>
// </sample>
}
