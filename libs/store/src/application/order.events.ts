import type { DomainEvent, NewDomainEvent } from '@app/platform/ports';
import type { Order } from '../domain/order';

type OrderPayload = { orderId: bigint; petId: bigint; quantity: number; shipDate: string | null };

/**
 * An order was placed for a pet (the pet, reserved, is `pending`): published in the order's transaction, once per
 * order, never by a replay of a keyed request. Its aggregate is the order (`aggregateId` its id as decimal text).
 */
export type OrderPlaced = DomainEvent<'store.order-placed', OrderPayload>;
/** An order was approved. */
export type OrderApproved = DomainEvent<'store.order-approved', OrderPayload>;
/** An order was delivered: its pet is sold. */
export type OrderDelivered = DomainEvent<'store.order-delivered', OrderPayload>;
/** An order was cancelled before it was delivered: its pet is available again. */
export type OrderCancelled = DomainEvent<'store.order-cancelled', OrderPayload>;

export type OrderEvent = OrderPlaced | OrderApproved | OrderDelivered | OrderCancelled;

/** The event of `order` as it is now (`store.order-placed`, `store.order-approved`, ...). */
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
