import type { NewDomainEvent } from '@app/platform/domain';
import type { Order } from './order';
import type { OrderApproved } from './order-approved.event';
import type { OrderCancelled } from './order-cancelled.event';
import type { OrderDelivered } from './order-delivered.event';
import type { OrderPlaced } from './order-placed.event';

/** What every event of an order's life carries: the order as it is after the step. */
export interface OrderEventPayload {
  orderId: bigint;
  petId: bigint;
  quantity: number;
  /** ISO 8601, UTC, milliseconds. */
  shipDate: string | null;
}

export type OrderEvent = OrderPlaced | OrderApproved | OrderDelivered | OrderCancelled;

/** The event `name` of `order` as it is now; its aggregate is the order (`aggregateId` its id as decimal text). */
export function orderEvent<E extends OrderEvent>(name: E['name'], order: Order): NewDomainEvent<E> {
  return {
    name,
    version: 1,
    aggregateId: String(order.id),
    payload: {
      orderId: order.id,
      petId: order.petId,
      quantity: order.quantity,
      shipDate: order.shipDate?.toISOString() ?? null,
    },
  } as NewDomainEvent<E>;
}
