import { InvalidOrderError } from './order.errors';
import { OrderStatus } from './order-status';

export const ORDER_QUANTITY_MAX = 100;

/** The range of the contract's int64 identifiers. */
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

export interface NewOrderProps {
  /** A number (exact below 2^53) or a bigint, as the request carried it. */
  petId: number | bigint;
  quantity?: number;
  shipDate?: Date;
}

/** An order about to be placed: its rules are checked, it has no identifier yet, and it is placed. */
export class NewOrder {
  private constructor(
    readonly petId: bigint,
    readonly quantity: number,
    readonly shipDate: Date | undefined,
  ) {}

  static create({ petId, quantity = 1, shipDate }: NewOrderProps): NewOrder {
    const pet = typeof petId === 'bigint' ? petId : Number.isSafeInteger(petId) ? BigInt(petId) : undefined;
    if (pet === undefined || pet < INT64_MIN || pet > INT64_MAX) {
      throw new InvalidOrderError(`petId must be an integer from ${INT64_MIN} to ${INT64_MAX}`);
    }
    if (!Number.isInteger(quantity) || quantity < 1 || quantity > ORDER_QUANTITY_MAX) {
      throw new InvalidOrderError(`quantity must be an integer from 1 to ${ORDER_QUANTITY_MAX}`);
    }
    if (shipDate !== undefined && Number.isNaN(shipDate.getTime())) {
      throw new InvalidOrderError('shipDate must be a date-time');
    }
    return new NewOrder(pet, quantity, shipDate);
  }
}

export interface OrderProps {
  petId: bigint;
  quantity: number;
  shipDate: Date | undefined;
  status: OrderStatus;
}

/** An order of the store, identified by the id the database assigned: an int64 from 1. */
export class Order {
  private constructor(
    readonly id: bigint,
    readonly petId: bigint,
    readonly quantity: number,
    readonly shipDate: Date | undefined,
    readonly status: OrderStatus,
  ) {}

  /** The order just placed, with the id the database gave it. Every rule was checked by `NewOrder.create`. */
  static placed(id: bigint, order: NewOrder): Order {
    return new Order(id, order.petId, order.quantity, order.shipDate, OrderStatus.Placed);
  }

  /** An order as the table stored it: its rules were checked when it was written, so they are not checked again. */
  static restore(id: bigint, { petId, quantity, shipDate, status }: OrderProps): Order {
    return new Order(id, petId, quantity, shipDate, status);
  }

  /** Delivered: the contract's `complete`. */
  get complete(): boolean {
    return this.status === OrderStatus.Delivered;
  }
}

/** Whether `id` can be an order's: an int64 from 1 (any other is no order's, without asking the database). */
export function isOrderId(id: bigint): boolean {
  return id >= 1n && id <= INT64_MAX;
}
