import type { DomainEvents, UnitOfWork } from '@app/platform/ports';
import { NewOrder, isOrderId, type NewOrderProps, type Order } from '../domain/order';
import {
  OrderNotFoundError,
  OrderUnexpectedStateError,
  PetNotAvailableError,
  UnknownPetError,
} from '../domain/order.errors';
import type { OrderRepository } from '../domain/order.repository';
import { ORDER_STEPS, OrderStatus, type OrderStep } from '../domain/order-status';
import type { PetDirectory } from '../domain/pet-directory';
import { orderEvent, type OrderEvent } from './order-event';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

export interface OrderPage {
  orders: Order[];
  /** The cursor of the next page, when there is one. */
  nextAfter?: bigint;
}

/**
 * The store's use cases: an order's life, each step one unit of work with the pet's change and the step's event
 * (docs/extending.md, "Writing across modules"). Domain types in and out; plain TypeScript, built with `new`.
 */
export class OrdersService {
  constructor(
    private readonly orders: OrderRepository,
    private readonly pets: PetDirectory,
    private readonly unitOfWork: UnitOfWork,
    private readonly events: DomainEvents,
  ) {}

  /** One page by ascending id, only orders with `status` when given, and the cursor of the next page. */
  async list(query: { status?: string; limit?: number; after?: bigint } = {}): Promise<OrderPage> {
    const limit = Math.min(query.limit ?? DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE);
    const found = await this.orders.list({
      status: query.status === undefined ? undefined : OrderStatus.from(query.status),
      limit: limit + 1,
      after: query.after ?? 0n,
    });
    const orders = found.slice(0, limit);
    return { orders, nextAfter: found.length > limit ? orders[orders.length - 1].id : undefined };
  }

  async get(id: bigint): Promise<Order> {
    const order = isOrderId(id) ? await this.orders.findById(id) : undefined;
    if (!order) throw new OrderNotFoundError(id);
    return order;
  }

  /**
   * Places an order: the pet goes from available to pending and the order is written, with `store.order-placed`, in
   * one unit of work. Of two same-tick orders for one pet, one reserves it; the other is refused.
   */
  async place(props: NewOrderProps): Promise<Order> {
    const order = NewOrder.create(props);
    return this.unitOfWork.run(async () => {
      if (!(await this.pets.reserve(order.petId))) {
        throw (await this.pets.exists(order.petId))
          ? new PetNotAvailableError(order.petId)
          : new UnknownPetError(order.petId);
      }
      const placed = await this.orders.add(order);
      await this.events.publish(orderEvent('store.order-placed', placed));
      return placed;
    });
  }

  /** placed → approved; the pet stays reserved. */
  approve(id: bigint): Promise<Order> {
    return this.step(id, ORDER_STEPS.approve, 'store.order-approved');
  }

  /** approved → delivered, and the pet is sold. */
  deliver(id: bigint): Promise<Order> {
    return this.step(id, ORDER_STEPS.deliver, 'store.order-delivered', (order) => this.pets.sell(order.petId));
  }

  /** placed or approved → cancelled, and the pet is available again. */
  cancel(id: bigint): Promise<Order> {
    return this.step(id, ORDER_STEPS.cancel, 'store.order-cancelled', (order) => this.pets.release(order.petId));
  }

  /**
   * Takes `step` with the pet's change and the step's event, in one unit of work. The order holds its pet pending
   * from its placing to its delivery or cancellation, and only the order moves it, so the pet's change is made
   * whenever the order's is.
   */
  private step(
    id: bigint,
    step: OrderStep,
    event: OrderEvent['name'],
    petChange?: (order: Order) => Promise<boolean>,
  ): Promise<Order> {
    return this.unitOfWork.run(async () => {
      const moved = isOrderId(id) ? await this.orders.move(id, step) : undefined;
      if (!moved) {
        const order = await this.get(id);
        throw new OrderUnexpectedStateError(order.id, order.status, step);
      }
      await petChange?.(moved);
      await this.events.publish(orderEvent(event, moved));
      return moved;
    });
  }
}
