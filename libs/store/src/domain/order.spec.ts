import { describe, expect, it } from 'vitest';
import { Order } from './order';
import { OrderUnexpectedStateError } from './order.errors';
import { ORDER_STEPS, OrderStatus } from './order-status';

const at = (status: OrderStatus) =>
  Order.restore(7n, 2, { petId: 3n, quantity: 1, shipDate: new Date('2026-12-01T09:30:00Z'), status });
const event = (name: string) => ({
  name,
  version: 1,
  aggregateId: '7',
  payload: { orderId: 7n, petId: 3n, quantity: 1, shipDate: '2026-12-01T09:30:00.000Z' },
});

describe('Order', () => {
  it('is placed new, its rules checked, and records store.order-placed with the id the database gives it', () => {
    const order = Order.place({ petId: 3, shipDate: new Date('2026-12-01T09:30:00Z') });
    expect([order.status, order.quantity, order.isNew, order.complete]).toEqual([OrderStatus.Placed, 1, true, false]);
    order.stored(7n, 1);
    expect(order.recordedEvents()).toEqual([event('store.order-placed')]);
    expect(() => Order.place({ petId: 3, quantity: 101 })).toThrow('quantity must be an integer from 1 to 100');
    expect(() => Order.place({ petId: 3, shipDate: new Date('x') })).toThrow('shipDate must be a date-time');
  });

  it('is approved, then delivered (complete), recording a step each', () => {
    const order = at(OrderStatus.Placed);
    order.approve();
    order.deliver();
    expect([order.status, order.complete]).toEqual([OrderStatus.Delivered, true]);
    expect(order.recordedEvents()).toEqual([event('store.order-approved'), event('store.order-delivered')]);
  });

  it.each([OrderStatus.Placed, OrderStatus.Approved])('is cancelled from %s', (status) => {
    const order = at(status);
    order.cancel();
    expect(order.status).toBe(OrderStatus.Cancelled);
    expect(order.recordedEvents()).toEqual([event('store.order-cancelled')]);
  });

  it.each([
    ['approve', OrderStatus.Approved, (o: Order) => o.approve(), ORDER_STEPS.approve],
    ['approve', OrderStatus.Cancelled, (o: Order) => o.approve(), ORDER_STEPS.approve],
    ['deliver', OrderStatus.Placed, (o: Order) => o.deliver(), ORDER_STEPS.deliver],
    ['deliver', OrderStatus.Delivered, (o: Order) => o.deliver(), ORDER_STEPS.deliver],
    ['cancel', OrderStatus.Delivered, (o: Order) => o.cancel(), ORDER_STEPS.cancel],
    ['cancel', OrderStatus.Cancelled, (o: Order) => o.cancel(), ORDER_STEPS.cancel],
  ] as const)('refuses to %s an order %s (409), unchanged, nothing recorded', (_step, status, take, step) => {
    const order = at(status);
    expect(() => take(order)).toThrow(new OrderUnexpectedStateError(7n, status, step));
    expect(order.status).toBe(status);
    expect(order.recordedEvents()).toEqual([]);
  });
});
