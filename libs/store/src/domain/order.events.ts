import type { DomainEvent, NewDomainEvent } from '@app/platform/domain';
import type { Order } from './order';

/** What every event of an order's life carries: the order as it is after the step. */
export interface OrderEventPayload {
  orderId: bigint;
  petId: bigint;
  quantity: number;
  /** ISO 8601, UTC, milliseconds. */
  shipDate: string | null;
}

/**
 * An order was placed for a pet (the pet, reserved, is `pending`): recorded once per order, never by a replay of a
 * keyed request. A change of its payload's shape is a new version (so for each event here).
 */
export type OrderPlaced = DomainEvent<'store.order-placed', OrderEventPayload>;
/** An order was approved (its pet stays `pending`). */
export type OrderApproved = DomainEvent<'store.order-approved', OrderEventPayload>;
/** An order was delivered: its pet is `sold`. */
export type OrderDelivered = DomainEvent<'store.order-delivered', OrderEventPayload>;
/** An order was cancelled before it was delivered: its pet is `available` again. */
export type OrderCancelled = DomainEvent<'store.order-cancelled', OrderEventPayload>;

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
