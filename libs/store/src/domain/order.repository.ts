import type { Order } from './order';
import type { OrderStatus } from './order-status';

export interface OrderListQuery {
  status?: OrderStatus;
  limit: number;
  /** Only orders with a greater id (0: from the first). */
  after: bigint;
}

/** The port to the orders. An abstract class, so that it is also the DI token. */
export abstract class OrderRepository {
  abstract findById(id: bigint): Promise<Order | undefined>;
  /** Orders by ascending id after `after`, at most `limit`, only those with `status` when given (keyset, never OFFSET). */
  abstract list(query: OrderListQuery): Promise<Order[]>;
  /**
   * Saves the order with the running unit of work: a new one is added (its id given as the unit commits), one read
   * back is written if its row still has the version it was read at, with the events it recorded.
   */
  abstract save(order: Order): Promise<void>;
}
