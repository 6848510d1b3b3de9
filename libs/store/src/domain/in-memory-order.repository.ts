import { Order } from './order';
import { OrderRepository, type OrderListQuery } from './order.repository';

/**
 * The orders in memory, for the unit tests of the application layer: one implementation of the port, kept beside it,
 * so that a method added to the port is added here once rather than to a double in every spec. It keeps what it is
 * given and no rule: the rules are the Order's. `saved` hears each order saved (the test's InMemoryUnitOfWork).
 */
export class InMemoryOrderRepository extends OrderRepository {
  readonly stored: Order[] = [];

  constructor(private readonly saved?: (order: Order) => void) {
    super();
  }

  async findById(id: bigint): Promise<Order | undefined> {
    const order = this.stored.find((candidate) => candidate.id === id);
    return order && copyOf(order);
  }

  async list({ status, limit, after }: OrderListQuery): Promise<Order[]> {
    return this.stored
      .filter((order) => order.id > after && (status === undefined || order.status === status))
      .slice(0, limit)
      .map(copyOf);
  }

  async save(order: Order): Promise<void> {
    if (order.isNew) order.stored(BigInt(this.stored.length + 1), 1);
    else order.stored(order.id, order.version + 1);
    const index = this.stored.findIndex((stored) => stored.id === order.id);
    if (index === -1) this.stored.push(copyOf(order));
    else this.stored[index] = copyOf(order);
    this.saved?.(order);
  }
}

/** An order as a read gives it: another object, as each read of a table gives one. */
function copyOf(order: Order): Order {
  return Order.restore(order.id, order.version, order);
}
