import { AggregateRoot } from '@app/platform/domain';
import { InvalidOrderError, OrderUnexpectedStateError } from './order.errors';
import { orderEvent, type OrderEvent } from './order-event';
import type { OrderPlaced } from './order-placed.event';
import { ORDER_STEPS, OrderStatus, type OrderStep } from './order-status';

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

export interface OrderProps {
  petId: bigint;
  quantity: number;
  shipDate: Date | undefined;
  status: OrderStatus;
}

/**
 * An order of the store: an aggregate, identified by the id the database assigned (an int64 from 1). Placed, then
 * approved, then delivered, or cancelled before it is delivered: each step is a method that checks the step is one
 * its status allows (409 `order_unexpected_state` otherwise) and records the step's event.
 */
export class Order extends AggregateRoot {
  #status: OrderStatus;

  private constructor(
    stored: { id: bigint; version: number } | undefined,
    readonly petId: bigint,
    readonly quantity: number,
    readonly shipDate: Date | undefined,
    status: OrderStatus,
  ) {
    super(stored);
    this.#status = status;
  }

  /** A new order, placed, its rules checked; it records `store.order-placed`. */
  static place({ petId, quantity = 1, shipDate }: NewOrderProps): Order {
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
    const order = new Order(undefined, pet, quantity, shipDate, OrderStatus.Placed);
    order.record(() => orderEvent<OrderPlaced>('store.order-placed', order));
    return order;
  }

  /** An order as the table stored it, at its row's version: its rules were checked when it was written. */
  static restore(id: bigint, version: number, { petId, quantity, shipDate, status }: OrderProps): Order {
    return new Order({ id, version }, petId, quantity, shipDate, status);
  }

  get status(): OrderStatus {
    return this.#status;
  }

  /** Delivered: the contract's `complete`. */
  get complete(): boolean {
    return this.#status === OrderStatus.Delivered;
  }

  /** placed → approved; the pet stays reserved. */
  approve(): void {
    this.take(ORDER_STEPS.approve, 'store.order-approved');
  }

  /** approved → delivered: its pet is to be sold with it. */
  deliver(): void {
    this.take(ORDER_STEPS.deliver, 'store.order-delivered');
  }

  /** placed or approved → cancelled: its pet is to be released with it. */
  cancel(): void {
    this.take(ORDER_STEPS.cancel, 'store.order-cancelled');
  }

  private take(step: OrderStep, event: OrderEvent['name']): void {
    if (!step.from.includes(this.#status)) throw new OrderUnexpectedStateError(this.id, this.#status, step);
    this.#status = step.to;
    this.record(() => orderEvent(event, this));
  }
}

/** Whether `id` can be an order's: an int64 from 1 (any other is no order's, without asking the database). */
export function isOrderId(id: bigint): boolean {
  return id >= 1n && id <= INT64_MAX;
}
