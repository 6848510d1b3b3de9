import type { NewOrder, Order } from './order';
import type { OrderStatus, OrderStep } from './order-status';

export interface OrderListQuery {
  status?: OrderStatus;
  limit: number;
  /** Only orders with a greater id (0: from the first). */
  after: bigint;
}

/** The port to the orders. An abstract class, so that it is also the DI token. */
export abstract class OrderRepository {
  /** Stores the order, placed, and returns it with its new id. */
  abstract add(order: NewOrder): Promise<Order>;
  abstract findById(id: bigint): Promise<Order | undefined>;
  /** Orders by ascending id after `after`, at most `limit`, only those with `status` when given (keyset, never OFFSET). */
  abstract list(query: OrderListQuery): Promise<Order[]>;
  /**
   * Takes `step` if the order's status allows it now, in one conditional write: the order as it is after it for the
   * one caller that moved it, undefined for every other (its status does not allow it, or no order has the id).
   */
  abstract move(id: bigint, step: OrderStep): Promise<Order | undefined>;
}
