import { Controller, Delete, Get, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { API_PREFIX, ApiErrorResponses, Responds, setCreatedLocation, setNextPageLink } from '@app/platform';
import {
  IDEMPOTENT_REPLAYED_HEADER,
  IdempotencyKeyInUseError,
  IdempotencyKeyReusedError,
  Idempotent,
} from '@app/idempotency';
import { Scoped } from '@app/auth';
import { Stability } from '@app/stability';
import { Body, IntegerIdPipe, NoQueryParameters, parseDateTime } from '@app/validation';
import type { FastifyReply } from 'fastify';
import { MAX_PAGE_SIZE, OrdersService } from '../application/orders.service';
import { OrderStatus, ORDER_STEPS } from '../domain/order-status';
import {
  OrderNotFoundError,
  OrderUnexpectedStateError,
  PetNotAvailableError,
  UnknownPetError,
} from '../domain/order.errors';
import { ListOrdersQuery } from './dto/list-orders.query';
import { PlaceOrderDto } from './dto/place-order.dto';
import { OrderResponse, toOrderResponse } from './dto/order.response';

const ORDER_ID = {
  name: 'orderId',
  required: true,
  schema: { type: 'integer', format: 'int64' },
  description: 'The id of the order.',
} as const;

/** What a keyed POST says of a retry. */
const KEYED =
  'With an `Idempotency-Key`, a retry of the same request gets the first answer again (`Idempotent-Replayed: true`) ' +
  'and changes nothing.';

/**
 * The store's orders, under `/v1/store/orders`: every operation beta. Each step of an order's life is one unit of
 * work with its pet's change and its event. The keyed POSTs run their handler in one transaction with the record
 * of the answer: on PostgreSQL it may run again (a serialization failure), so nothing in it but database work.
 */
@ApiTags('store')
@Scoped('store')
@Controller('store/orders')
export class OrdersController {
  constructor(private readonly orders: OrdersService) {}

  @Get()
  @Stability('beta')
  @ApiOperation({
    operationId: 'listOrders',
    summary: 'List orders',
    description: 'Orders by ascending id, at most `limit`, only those with `status` when given.',
  })
  @Responds(200, OrderResponse, {
    isArray: true,
    maxItems: MAX_PAGE_SIZE,
    description: 'A page of orders.',
    headers: {
      Link: {
        description:
          'RFC 8288: `<...>; rel="next"`, the next page (same `limit` and `status`, and the `after` cursor), when more orders match. Absent on the last page.',
        schema: { type: 'string', example: `<${API_PREFIX}/store/orders?limit=20&after=20>; rel="next"` },
      },
    },
  })
  @ApiErrorResponses(400)
  async list(
    @Query() query: ListOrdersQuery,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<OrderResponse[]> {
    const page = await this.orders.list(query);
    if (page.nextAfter !== undefined) {
      setNextPageLink(reply, { limit: query.limit, status: query.status, after: page.nextAfter });
    }
    return page.items.map(toOrderResponse);
  }

  @Post()
  @HttpCode(201)
  @Stability('beta')
  @ApiOperation({
    operationId: 'placeOrder',
    summary: 'Place an order for a pet',
    description: `Places an order for an available pet, which becomes \`pending\`; answers the order and its path in \`Location\`. ${KEYED}`,
  })
  @Responds(201, OrderResponse, {
    description: 'The order, placed, with the id it was given.',
    headers: {
      Location: {
        description: 'The path of the new order.',
        schema: { type: 'string', example: `${API_PREFIX}/store/orders/1` },
      },
      ...IDEMPOTENT_REPLAYED_HEADER,
    },
  })
  @Idempotent()
  @ApiErrorResponses(
    400,
    new PetNotAvailableError(1n),
    new IdempotencyKeyInUseError(),
    413,
    415,
    new UnknownPetError(42n),
    new IdempotencyKeyReusedError(),
  )
  async place(@Body() body: PlaceOrderDto, @Res({ passthrough: true }) reply: FastifyReply): Promise<OrderResponse> {
    const order = await this.orders.place({
      petId: body.petId,
      quantity: body.quantity,
      shipDate: body.shipDate === undefined ? undefined : parseDateTime(body.shipDate),
    });
    setCreatedLocation(reply, order.id);
    return toOrderResponse(order);
  }

  @Get(':orderId')
  @Stability('beta')
  @ApiOperation({
    operationId: 'getOrderById',
    summary: 'Get an order',
    description: 'The order with this id, whatever its status, or 404 when there is none.',
  })
  @ApiParam(ORDER_ID)
  @Responds(200, OrderResponse, { description: 'The order.' })
  @ApiErrorResponses(400, new OrderNotFoundError(42n))
  async get(@Param('orderId', IntegerIdPipe) id: bigint, @Query() _query: NoQueryParameters): Promise<OrderResponse> {
    return toOrderResponse(await this.orders.get(id));
  }

  @Post(':orderId/approve')
  @HttpCode(200)
  @Stability('beta')
  @ApiOperation({
    operationId: 'approveOrder',
    summary: 'Approve an order',
    description: `Approves a placed order; its pet stays \`pending\`. ${KEYED}`,
  })
  @ApiParam(ORDER_ID)
  @Responds(200, OrderResponse, { description: 'The order, approved.', headers: { ...IDEMPOTENT_REPLAYED_HEADER } })
  @Idempotent()
  @ApiErrorResponses(
    400,
    new OrderNotFoundError(42n),
    new OrderUnexpectedStateError(1n, OrderStatus.Cancelled, ORDER_STEPS.approve),
    new IdempotencyKeyInUseError(),
    new IdempotencyKeyReusedError(),
  )
  async approve(
    @Param('orderId', IntegerIdPipe) id: bigint,
    @Query() _query: NoQueryParameters,
  ): Promise<OrderResponse> {
    return toOrderResponse(await this.orders.approve(id));
  }

  @Post(':orderId/deliver')
  @HttpCode(200)
  @Stability('beta')
  @ApiOperation({
    operationId: 'deliverOrder',
    summary: 'Deliver an order',
    description: `Marks an approved order delivered (\`complete\`); its pet becomes \`sold\`. ${KEYED}`,
  })
  @ApiParam(ORDER_ID)
  @Responds(200, OrderResponse, { description: 'The order, delivered.', headers: { ...IDEMPOTENT_REPLAYED_HEADER } })
  @Idempotent()
  @ApiErrorResponses(
    400,
    new OrderNotFoundError(42n),
    new OrderUnexpectedStateError(1n, OrderStatus.Placed, ORDER_STEPS.deliver),
    new IdempotencyKeyInUseError(),
    new IdempotencyKeyReusedError(),
  )
  async deliver(
    @Param('orderId', IntegerIdPipe) id: bigint,
    @Query() _query: NoQueryParameters,
  ): Promise<OrderResponse> {
    return toOrderResponse(await this.orders.deliver(id));
  }

  @Delete(':orderId')
  @Stability('beta')
  @ApiOperation({
    operationId: 'deleteOrder',
    summary: 'Cancel an order',
    description:
      'Cancels a placed or approved order, and its pet is `available` again. The order stays, `cancelled`: ' +
      'answered here and by `GET`; a delivered or cancelled order is not cancelled again (409).',
  })
  @ApiParam(ORDER_ID)
  @Responds(200, OrderResponse, { description: 'The order, cancelled.' })
  @ApiErrorResponses(
    400,
    new OrderNotFoundError(42n),
    new OrderUnexpectedStateError(1n, OrderStatus.Delivered, ORDER_STEPS.cancel),
  )
  async cancel(
    @Param('orderId', IntegerIdPipe) id: bigint,
    @Query() _query: NoQueryParameters,
  ): Promise<OrderResponse> {
    return toOrderResponse(await this.orders.cancel(id));
  }
}
