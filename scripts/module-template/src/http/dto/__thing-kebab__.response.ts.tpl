import { ApiProperty, ApiSchema } from '@nestjs/swagger';
// <sample>
import { __THING___NAME_MAX_LENGTH, type __Thing__ } from '../../domain/__thing-kebab__';
import { __THING___STATUS_VALUES, type __Thing__StatusValue } from '../../domain/__thing-kebab__-status';
// </sample>
// <bare>
import type { __Thing__ } from '../../domain/__thing-kebab__';
// </bare>

/** __A_thing__ as the API returns it; `@Responds()` serializes exactly these properties. */
@ApiSchema({ name: '__Thing__' })
export class __Thing__Response {
  @ApiProperty({
    type: 'integer',
    format: 'int64',
    minimum: 1,
    description: 'Assigned by the service on creation, from 1 up; exact past 2^53.',
    example: 1,
  })
  id: bigint;

// <sample>
  @ApiProperty({ minLength: 1, maxLength: __THING___NAME_MAX_LENGTH, example: 'First' })
  name: string;

  @ApiProperty({ enum: __THING___STATUS_VALUES, enumName: '__Thing__Status' })
  status: __Thing__StatusValue;
// </sample>
}

export function to__Thing__Response(__thing__: __Thing__): __Thing__Response {
// <sample>
  return { id: __thing__.id, name: __thing__.name, status: __thing__.status.value };
// </sample>
// <bare>
  return { id: __thing__.id };
// </bare>
}
