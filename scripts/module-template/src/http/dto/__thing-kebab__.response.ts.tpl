import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
// <sample>
import { __EACH:string(__THING_____FIELD___MAX_LENGTH)__, __EACH:int(__THING_____FIELD___MIN, __THING_____FIELD___MAX)__, type __Thing__ } from '../../domain/__thing-kebab__';
// <each field>
// <enum>
import { __THING_____FIELD___VALUES, type __Thing____Field__Value } from '../../domain/__thing-kebab__-__field-kebab__';
// </enum>
// </each>
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
// <each field>
// <string>
  @__ApiProperty__({ minLength: __min__, maxLength: __THING_____FIELD___MAX_LENGTH, example: '__example__' })
  __field____responseMark__: string;
// </string>
// <int>
  @__ApiProperty__({ type: 'integer', minimum: __THING_____FIELD___MIN, maximum: __THING_____FIELD___MAX, example: __example__ })
  __field____responseMark__: number;
// </int>
// <int64>
  @__ApiProperty__({ type: 'integer', format: 'int64', example: 1 })
  __field____responseMark__: bigint;
// </int64>
// <enum>
  @__ApiProperty__({ enum: __THING_____FIELD___VALUES, enumName: '__Thing____Field__' })
  __field____responseMark__: __Thing____Field__Value;
// </enum>

// </each>
// </sample>
}

export function to__Thing__Response(__thing__: __Thing__): __Thing__Response {
// <sample>
  return { id: __thing__.id, __EACH(__responseEntry__)__ };
// </sample>
// <bare>
  return { id: __thing__.id };
// </bare>
}
