import { pageOf, type Page, type PageRequest } from '@app/platform/domain';
import type { UnitOfWork } from '@app/platform/ports';
import { Order, isOrderId, type NewOrderProps } from '../domain/order';
import { OrderNotFoundError, PetNotAvailableError, UnknownPetError } from '../domain/order.errors';
import type { OrderRepository } from '../domain/order.repository';
import { OrderStatus } from '../domain/order-status';
import type { PetDirectory } from '../domain/pet-directory';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

/**
 * The store's use cases: an order's life, each step one unit of work with the pet's change, the order's step and
 * their events (docs/extending.md, "Writing across modules"). Domain types in and out; plain TypeScript, built with
 * `new`.
 */
export class OrdersService {
  constructor(
    private readonly orders: OrderRepository,
    private readonly pets: PetDirectory,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  /** One page by ascending id, only orders with `status` when given, and the cursor of the next page. */
  async list(query: PageRequest & { status?: string } = {}): Promise<Page<Order>> {
    const status = query.status === undefined ? undefined : OrderStatus.from(query.status);
    return pageOf(query, { defaultLimit: DEFAULT_PAGE_SIZE, maxLimit: MAX_PAGE_SIZE }, (slice) =>
      this.orders.list({ status, ...slice }),
    );
  }

  async get(id: bigint): Promise<Order> {
    const order = isOrderId(id) ? await this.orders.findById(id) : undefined;
    if (!order) throw new OrderNotFoundError(id);
    return order;
  }

  /**
   * Places an order: the pet goes from available to pending and the order is placed, in one unit of work. Of two
   * same-tick orders for one pet, one reserves it; the other is refused.
   */
  place(props: NewOrderProps): Promise<Order> {
    return this.unitOfWork.run(async () => {
      const order = Order.place(props);
      if (!(await this.pets.reserve(order.petId))) {
        throw (await this.pets.exists(order.petId))
          ? new PetNotAvailableError(order.petId)
          : new UnknownPetError(order.petId);
      }
      await this.orders.save(order);
      return order;
    });
  }

  /** placed → approved; the pet stays reserved. */
  approve(id: bigint): Promise<Order> {
    return this.step(id, (order) => order.approve());
  }

  /** approved → delivered, and the pet is sold. */
  deliver(id: bigint): Promise<Order> {
    return this.step(id, async (order) => {
      order.deliver();
      await this.pets.sell(order.petId);
    });
  }

  /** placed or approved → cancelled, and the pet is available again. */
  cancel(id: bigint): Promise<Order> {
    return this.step(id, async (order) => {
      order.cancel();
      await this.pets.release(order.petId);
    });
  }

  /**
   * The order's step (its rule is the order's: 409 from a status that does not allow it) with the pet's change, in
   * one unit of work. The order holds its pet pending from its placing to its delivery or cancellation, and only the
   * order moves it, so the pet's change is made whenever the order's is.
   */
  private step(id: bigint, change: (order: Order) => void | Promise<void>): Promise<Order> {
    return this.unitOfWork.run(async () => {
      const order = await this.get(id);
      await change(order);
      await this.orders.save(order);
      return order;
    });
  }
}
