import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { PageQuery } from '@app/validation';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../../application/orders.service';
import { ORDER_STATUS_VALUES, type OrderStatusValue } from '../../domain/order-status';

/** `GET /v1/store/orders?limit=&after=&status=`: a repeated, empty or unknown parameter is invalid, not ignored. */
export class ListOrdersQuery extends PageQuery({
  item: 'an order',
  defaultLimit: DEFAULT_PAGE_SIZE,
  maxLimit: MAX_PAGE_SIZE,
}) {
  @ApiPropertyOptional({
    enum: ORDER_STATUS_VALUES,
    enumName: 'OrderStatus',
    description: 'Only orders with this status.',
  })
  @IsOptional()
  @IsIn(ORDER_STATUS_VALUES, { message: `status must be one of ${ORDER_STATUS_VALUES.join(', ')}` })
  status?: OrderStatusValue;
}
