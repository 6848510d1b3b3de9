import { Order, type NewOrder } from './order';
import { OrderRepository, type OrderListQuery } from './order.repository';
import type { OrderStep } from './order-status';

/**
 * The orders in memory, for the unit tests of the application layer: one implementation of the port, kept beside it,
 * so that a method added to the port is added here once rather than to a double in every spec.
 */
export class InMemoryOrderRepository extends OrderRepository {
  readonly stored: Order[] = [];
  private lastId = 0n;

  async add(order: NewOrder): Promise<Order> {
    const added = Order.placed(++this.lastId, order);
    this.stored.push(added);
    return added;
  }

  async findById(id: bigint): Promise<Order | undefined> {
    return this.stored.find((order) => order.id === id);
  }

  async list({ status, limit, after }: OrderListQuery): Promise<Order[]> {
    return this.stored
      .filter((order) => order.id > after && (status === undefined || order.status === status))
      .slice(0, limit);
  }

  async move(id: bigint, step: OrderStep): Promise<Order | undefined> {
    const index = this.stored.findIndex((order) => order.id === id && step.from.includes(order.status));
    if (index === -1) return undefined;
    this.stored[index] = Order.restore(id, { ...this.stored[index], status: step.to });
    return this.stored[index];
  }
}
