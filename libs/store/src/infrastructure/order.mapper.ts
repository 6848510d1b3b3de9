import { int64Of } from '@app/database';
import { Order } from '../domain/order';
import { OrderStatus } from '../domain/order-status';
import type { OrderRecord } from './order.record';

/** Converts between the table's row and the domain, so neither leaks into the other. */
export const OrderMapper = {
  /** A row as the repository reads it: its int64s as decimal text, read exactly (`int64Of`). */
  toDomain(record: OrderRecord): Order {
    return Order.restore(int64Of(record.id), Number(record.version), {
      petId: int64Of(record.petId),
      quantity: Number(record.quantity),
      shipDate: record.shipDate === null ? undefined : new Date(Number(record.shipDate)),
      status: OrderStatus.from(record.status),
    });
  },

  /** The columns of a new order, its int64 as decimal text. */
  toRecord(order: Order): Omit<OrderRecord, 'id' | 'status' | 'version'> {
    return { petId: String(order.petId), quantity: order.quantity, shipDate: order.shipDate?.getTime() ?? null };
  },
};
