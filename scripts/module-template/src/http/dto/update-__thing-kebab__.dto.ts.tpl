// <sample>
// <update>
import { ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsIn, IsString, Length, ValidateIf } from 'class-validator';
import { __THING___NAME_MAX_LENGTH } from '../../domain/__thing-kebab__';
import { __THING___STATUS_VALUES, type __Thing__StatusValue } from '../../domain/__thing-kebab__-status';

/** The body of `PATCH /v1/__route__/{__thing__Id}`: the fields to change; those left out keep their values. */
@ApiSchema({ name: '__Thing__Changes', description: 'The fields to change. Unknown properties are refused.' })
export class Update__Thing__Dto {
  @ApiPropertyOptional({ minLength: 1, maxLength: __THING___NAME_MAX_LENGTH, example: 'Renamed' })
  @ValidateIf((body: Update__Thing__Dto) => body.name !== undefined)
  // class-validator checks the lowest decorator first, and stops at the first failure.
  @Length(1, __THING___NAME_MAX_LENGTH, { message: `name must be 1 to ${__THING___NAME_MAX_LENGTH} characters long` })
  @IsString({ message: 'name must be a string' })
  name?: string;

  @ApiPropertyOptional({ enum: __THING___STATUS_VALUES, enumName: '__Thing__Status' })
  @ValidateIf((body: Update__Thing__Dto) => body.status !== undefined)
  @IsIn(__THING___STATUS_VALUES, { message: `status must be one of ${__THING___STATUS_VALUES.join(', ')}` })
  status?: __Thing__StatusValue;
}
// </update>
// </sample>
