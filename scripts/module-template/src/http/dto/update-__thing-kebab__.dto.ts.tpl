// <sample>
// <update>
import { ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsIn, IsInt, IsString, Length, Max, Min, ValidateIf } from 'class-validator';
import { INT64_RULE, IsInt64 } from '@app/validation';
import { __EACH:string(__THING_____FIELD___MAX_LENGTH)__, __EACH:int(__THING_____FIELD___MIN, __THING_____FIELD___MAX)__ } from '../../domain/__thing-kebab__';
// <each field>
// <enum>
import { __THING_____FIELD___VALUES, type __Thing____Field__Value } from '../../domain/__thing-kebab__-__field-kebab__';
// </enum>
// </each>

/** The body of `PATCH /v1/__route__/{__thing__Id}`: the fields to change; those left out keep their values. */
@ApiSchema({ name: '__Thing__Changes', description: 'The fields to change. Unknown properties are refused.' })
export class Update__Thing__Dto {
// <each field>
// <string>
  @ApiPropertyOptional({ minLength: __min__, maxLength: __THING_____FIELD___MAX_LENGTH, example: '__changed____nullableOption__' })
  @ValidateIf((body: Update__Thing__Dto) => body.__field__ !== undefined__andNotNull__)
  // class-validator checks the lowest decorator first, and stops at the first failure.
  @Length(__min__, __THING_____FIELD___MAX_LENGTH, { message: `__field__ must be __min__ to ${__THING_____FIELD___MAX_LENGTH} characters long` })
  @IsString({ message: '__field__ must be a string' })
  __field__?: string__nullable__;
// </string>
// <int>
  @ApiPropertyOptional({ type: 'integer', minimum: __THING_____FIELD___MIN, maximum: __THING_____FIELD___MAX, example: __example____nullableOption__ })
  @ValidateIf((body: Update__Thing__Dto) => body.__field__ !== undefined__andNotNull__)
  @Max(__THING_____FIELD___MAX, { message: `__field__ must be an integer from ${__THING_____FIELD___MIN} to ${__THING_____FIELD___MAX}` })
  @Min(__THING_____FIELD___MIN, { message: `__field__ must be an integer from ${__THING_____FIELD___MIN} to ${__THING_____FIELD___MAX}` })
  @IsInt({ message: `__field__ must be an integer from ${__THING_____FIELD___MIN} to ${__THING_____FIELD___MAX}` })
  __field__?: number__nullable__;
// </int>
// <int64>
  @ApiPropertyOptional({ type: 'integer', format: 'int64', example: 1__nullableOption__ })
  @ValidateIf((body: Update__Thing__Dto) => body.__field__ !== undefined__andNotNull__)
  @IsInt64(`__field__ must be ${INT64_RULE}`)
  __field__?: number | bigint__nullable__;
// </int64>
// <enum>
  @ApiPropertyOptional({ enum: __THING_____FIELD___VALUES, enumName: '__Thing____Field__'__nullableOption__ })
  @ValidateIf((body: Update__Thing__Dto) => body.__field__ !== undefined__andNotNull__)
  @IsIn(__THING_____FIELD___VALUES, { message: `__field__ must be one of ${__THING_____FIELD___VALUES.join(', ')}` })
  __field__?: __Thing____Field__Value__nullable__;
// </enum>

// </each>
}
// </update>
// </sample>
