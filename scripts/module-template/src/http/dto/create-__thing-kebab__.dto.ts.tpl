// <sample>
import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsDefined, IsIn, IsString, Length, ValidateIf } from 'class-validator';
import { __THING___NAME_MAX_LENGTH } from '../../domain/__thing-kebab__';
import { __THING___STATUS_VALUES, type __Thing__StatusValue } from '../../domain/__thing-kebab__-status';

// </sample>
// <bare>
import { ApiSchema } from '@nestjs/swagger';

// </bare>

/** The body of `POST /v1/__route__`. Types are never coerced; unknown properties are refused. */
@ApiSchema({ name: 'New__Thing__', description: '__A_thing__ to add. Unknown properties are refused.' })
export class Create__Thing__Dto {
// <sample>
  @ApiProperty({ minLength: 1, maxLength: __THING___NAME_MAX_LENGTH, example: 'First' })
  // class-validator checks the lowest decorator first, and stops at the first failure.
  @IsDefined({ message: 'name is required' })
  @Length(1, __THING___NAME_MAX_LENGTH, { message: `name must be 1 to ${__THING___NAME_MAX_LENGTH} characters long` })
  @IsString({ message: 'name must be a string' })
  name: string;

  @ApiPropertyOptional({ enum: __THING___STATUS_VALUES, enumName: '__Thing__Status', default: 'draft' })
  @ValidateIf((body: Create__Thing__Dto) => body.status !== undefined)
  @IsIn(__THING___STATUS_VALUES, { message: `status must be one of ${__THING___STATUS_VALUES.join(', ')}` })
  status?: __Thing__StatusValue;
// </sample>
}
