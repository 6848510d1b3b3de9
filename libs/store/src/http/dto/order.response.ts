import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { ORDER_QUANTITY_MAX, type Order } from '../../domain/order';
import { ORDER_STATUS_VALUES, type OrderStatusValue } from '../../domain/order-status';

/** The Order of the contract (Swagger Petstore's, with `cancelled`). An order without a ship date has no `shipDate`. */
@ApiSchema({ name: 'Order', description: 'An order for a pet. An order without a ship date has no `shipDate`.' })
export class OrderResponse {
  @ApiProperty({
    type: 'integer',
    format: 'int64',
    minimum: 1,
    description: 'Assigned by the service when the order is placed, from 1 up; exact past 2^53.',
    example: 1,
  })
  id: bigint;

  @ApiProperty({ type: 'integer', format: 'int64', description: 'The pet ordered.', example: 1 })
  petId: bigint;

  @ApiProperty({ type: 'integer', format: 'int32', minimum: 1, maximum: ORDER_QUANTITY_MAX, example: 1 })
  quantity: number;

  @ApiPropertyOptional({ type: 'string', format: 'date-time', example: '2026-12-01T09:30:00.000Z' })
  shipDate?: string;

  @ApiProperty({
    enum: ORDER_STATUS_VALUES,
    enumName: 'OrderStatus',
    description: 'placed, then approved, then delivered; or cancelled before it is delivered.',
  })
  status: OrderStatusValue;

  @ApiProperty({ description: 'Whether the order is delivered.', example: false })
  complete: boolean;
}

export function toOrderResponse(order: Order): OrderResponse {
  const response: OrderResponse = {
    id: order.id,
    petId: order.petId,
    quantity: order.quantity,
    status: order.status.value,
    complete: order.complete,
  };
  if (order.shipDate) response.shipDate = order.shipDate.toISOString();
  return response;
}
