import { beforeEach, describe, expect, it } from 'vitest';
import { InMemoryUnitOfWork } from '@app/platform/testing';
import { InMemoryOrderRepository } from '../domain/in-memory-order.repository';
import { Order } from '../domain/order';
import {
  InvalidOrderError,
  OrderNotFoundError,
  OrderUnexpectedStateError,
  PetNotAvailableError,
  UnknownPetError,
} from '../domain/order.errors';
import { OrderStatus } from '../domain/order-status';
import { PetDirectory } from '../domain/pet-directory';
import { OrdersService } from './orders.service';

/** Pets by id and status, with the catalogue's compare-and-set changes. */
class PetsByStatus extends PetDirectory {
  constructor(readonly statuses: Map<bigint, string>) {
    super();
  }
  exists = (petId: bigint) => Promise.resolve(this.statuses.has(petId));
  reserve = (petId: bigint) => this.change(petId, 'available', 'pending');
  release = (petId: bigint) => this.change(petId, 'pending', 'available');
  sell = (petId: bigint) => this.change(petId, 'pending', 'sold');
  private change(petId: bigint, from: string, to: string): Promise<boolean> {
    if (this.statuses.get(petId) !== from) return Promise.resolve(false);
    this.statuses.set(petId, to);
    return Promise.resolve(true);
  }
}

const stateOf = ({ id, petId, quantity, shipDate, status }: Order) => ({ id, petId, quantity, shipDate, status });

const payload = (order: Order) => ({
  orderId: order.id,
  petId: order.petId,
  quantity: order.quantity,
  shipDate: order.shipDate?.toISOString() ?? null,
});

describe('OrdersService', () => {
  let orders: InMemoryOrderRepository;
  let pets: PetsByStatus;
  let unitOfWork: InMemoryUnitOfWork;
  let service: OrdersService;

  beforeEach(() => {
    unitOfWork = new InMemoryUnitOfWork();
    orders = new InMemoryOrderRepository(unitOfWork.saved);
    pets = new PetsByStatus(
      new Map([
        [1n, 'available'],
        [2n, 'sold'],
      ]),
    );
    service = new OrdersService(orders, pets, unitOfWork);
  });

  it('places an order for an available pet in one unit of work: the pet reserved, the order placed, its event', async () => {
    const order = await service.place({ petId: 1, quantity: 2, shipDate: new Date('2026-12-01T09:30:00Z') });
    expect(stateOf(order)).toEqual({
      id: 1n,
      petId: 1n,
      quantity: 2,
      shipDate: new Date('2026-12-01T09:30:00Z'),
      status: OrderStatus.Placed,
    });
    expect(pets.statuses.get(1n)).toBe('pending');
    expect(unitOfWork.runs).toBe(1);
    expect(unitOfWork.published).toEqual([
      { name: 'store.order-placed', version: 1, aggregateId: '1', payload: payload(order) },
    ]);
  });

  it('refuses a pet that is not available (409), one that does not exist (422), and bad fields, placing nothing', async () => {
    await expect(service.place({ petId: 2 })).rejects.toEqual(new PetNotAvailableError(2n));
    await expect(service.place({ petId: 9 })).rejects.toEqual(new UnknownPetError(9n));
    await expect(service.place({ petId: 1, quantity: 0 })).rejects.toEqual(
      new InvalidOrderError('quantity must be an integer from 1 to 100'),
    );
    await expect(service.place({ petId: 2 ** 53 })).rejects.toBeInstanceOf(InvalidOrderError);
    expect(orders.stored).toEqual([]);
    expect(unitOfWork.published).toEqual([]);
    // The second of two orders for one pet finds it reserved.
    await service.place({ petId: 1 });
    await expect(service.place({ petId: 1 })).rejects.toEqual(new PetNotAvailableError(1n));
  });

  it('takes an order through its life, the pet with it, one event a step', async () => {
    const placed = await service.place({ petId: 1 });
    const approved = await service.approve(placed.id);
    expect(approved.status).toBe(OrderStatus.Approved);
    expect(pets.statuses.get(1n)).toBe('pending');
    const delivered = await service.deliver(placed.id);
    expect([delivered.status, delivered.complete]).toEqual([OrderStatus.Delivered, true]);
    expect(pets.statuses.get(1n)).toBe('sold');
    expect(unitOfWork.published.map(({ name }) => name)).toEqual([
      'store.order-placed',
      'store.order-approved',
      'store.order-delivered',
    ]);
  });

  it('cancels a placed or an approved order and gives its pet back', async () => {
    const first = await service.place({ petId: 1 });
    expect((await service.cancel(first.id)).status).toBe(OrderStatus.Cancelled);
    expect(pets.statuses.get(1n)).toBe('available');
    const second = await service.place({ petId: 1 });
    await service.approve(second.id);
    expect((await service.cancel(second.id)).status).toBe(OrderStatus.Cancelled);
    expect(pets.statuses.get(1n)).toBe('available');
    expect(unitOfWork.published.at(-1)).toEqual({
      name: 'store.order-cancelled',
      version: 1,
      aggregateId: '2',
      payload: payload(
        Order.restore(2n, 3, { petId: 1n, quantity: 1, shipDate: undefined, status: OrderStatus.Cancelled }),
      ),
    });
  });

  it('refuses a step its status does not allow (409) and an order that does not exist (404), changing nothing', async () => {
    const order = await service.place({ petId: 1 });
    await expect(service.deliver(order.id)).rejects.toThrow(
      new OrderUnexpectedStateError(order.id, OrderStatus.Placed, {
        name: 'deliver',
        from: [OrderStatus.Approved],
        to: OrderStatus.Delivered,
      }),
    );
    await service.cancel(order.id);
    await expect(service.approve(order.id)).rejects.toThrow(
      'order 1 is cancelled: only an order placed can be approved',
    );
    await expect(service.cancel(order.id)).rejects.toThrow(
      'order 1 is cancelled: only an order placed or approved can be cancelled',
    );
    await expect(service.approve(7n)).rejects.toEqual(new OrderNotFoundError(7n));
    await expect(service.cancel(0n)).rejects.toEqual(new OrderNotFoundError(0n));
    expect(pets.statuses.get(1n)).toBe('available');
    expect(unitOfWork.published.map(({ name }) => name)).toEqual(['store.order-placed', 'store.order-cancelled']);
  });

  it('lists a page by ascending id, filtered by status, with the next cursor', async () => {
    for (const id of [3n, 4n, 5n]) pets.statuses.set(id, 'available');
    for (const petId of [1, 3, 4, 5]) await service.place({ petId });
    await service.approve(2n);
    expect((await service.list({ limit: 2 })).items.map(({ id }) => id)).toEqual([1n, 2n]);
    expect((await service.list({ limit: 2 })).nextAfter).toBe(2n);
    const last = await service.list({ limit: 2, after: 2n });
    expect([last.items.map(stateOf), last.nextAfter]).toEqual([
      [stateOf(orders.stored[2]), stateOf(orders.stored[3])],
      undefined,
    ]);
    expect((await service.list({ status: 'placed' })).items.map(({ id }) => id)).toEqual([1n, 3n, 4n]);
    await expect(service.list({ status: 'lost' })).rejects.toEqual(
      new InvalidOrderError('status must be one of placed, approved, delivered, cancelled'),
    );
  });
});
