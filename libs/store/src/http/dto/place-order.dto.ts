import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { INT64_RULE, IsDateTime, IsInt64 } from '@app/validation';
import { IsDefined, IsInt, Max, Min, ValidateIf } from 'class-validator';
import { ORDER_QUANTITY_MAX } from '../../domain/order';

const QUANTITY_RULE = `quantity must be an integer from 1 to ${ORDER_QUANTITY_MAX}`;

/** The body of `POST /v1/store/orders`. Types are never coerced: `"5"` is not a petId. */
@ApiSchema({ name: 'NewOrder', description: 'An order to place for a pet. Unknown properties are refused.' })
export class PlaceOrderDto {
  @ApiProperty({
    type: 'integer',
    format: 'int64',
    description: 'The pet ordered: it must be `available`, and is `pending` once the order is placed.',
    example: 1,
  })
  @IsDefined({ message: 'petId is required' })
  @IsInt64(`petId must be ${INT64_RULE}`)
  petId: number | bigint;

  @ApiPropertyOptional({ type: 'integer', format: 'int32', minimum: 1, maximum: ORDER_QUANTITY_MAX, default: 1 })
  @ValidateIf((body: PlaceOrderDto) => body.quantity !== undefined)
  // class-validator checks the lowest decorator first, and stops at the first failure.
  @Max(ORDER_QUANTITY_MAX, { message: QUANTITY_RULE })
  @Min(1, { message: QUANTITY_RULE })
  @IsInt({ message: QUANTITY_RULE })
  quantity?: number;

  @ApiPropertyOptional({
    type: 'string',
    format: 'date-time',
    description: 'When the order is to ship: an RFC 3339 date-time with its offset.',
    example: '2026-12-01T09:30:00Z',
  })
  @ValidateIf((body: PlaceOrderDto) => body.shipDate !== undefined)
  @IsDateTime()
  shipDate?: string;
}
