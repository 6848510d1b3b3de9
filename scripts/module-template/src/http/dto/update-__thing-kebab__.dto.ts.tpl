// <sample>
// <update>
import { ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsIn, IsString, Length, ValidateIf } from 'class-validator';
import { __EACH:string(__THING_____FIELD___MAX_LENGTH)__ } from '../../domain/__thing-kebab__';
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
  @ApiPropertyOptional({ minLength: __min__, maxLength: __THING_____FIELD___MAX_LENGTH, example: '__changed__' })
  @ValidateIf((body: Update__Thing__Dto) => body.__field__ !== undefined)
  // class-validator checks the lowest decorator first, and stops at the first failure.
  @Length(__min__, __THING_____FIELD___MAX_LENGTH, { message: `__field__ must be __min__ to ${__THING_____FIELD___MAX_LENGTH} characters long` })
  @IsString({ message: '__field__ must be a string' })
  __field__?: string;
// </string>
// <enum>
  @ApiPropertyOptional({ enum: __THING_____FIELD___VALUES, enumName: '__Thing____Field__' })
  @ValidateIf((body: Update__Thing__Dto) => body.__field__ !== undefined)
  @IsIn(__THING_____FIELD___VALUES, { message: `__field__ must be one of ${__THING_____FIELD___VALUES.join(', ')}` })
  __field__?: __Thing____Field__Value;
// </enum>

// </each>
}
// </update>
// </sample>
