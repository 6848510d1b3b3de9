import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { __THING___KEY_MAX_LENGTH, type __Thing__ } from '../../domain/__thing-kebab__';

/** A count as the API returns it; `@Responds()` serializes exactly these properties. */
@ApiSchema({ name: '__Thing__' })
export class __Thing__Response {
  @ApiProperty({
    minLength: 1,
    maxLength: __THING___KEY_MAX_LENGTH,
    description: 'What the events are counted under: an event\'s name, or what its handler counts by.',
    example: '__first_event__',
  })
  key: string;

  @ApiProperty({
    type: 'integer',
    format: 'int64',
    minimum: 1,
    description: 'How many events were counted under the key; exact past 2^53.',
    example: 1,
  })
  count: bigint;
}

export function to__Thing__Response(__thing__: __Thing__): __Thing__Response {
  return { key: __thing__.key, count: __thing__.count };
}
