import { InvalidOrderError } from './order.errors';

export const ORDER_STATUS_VALUES = ['placed', 'approved', 'delivered', 'cancelled'] as const;
export type OrderStatusValue = (typeof ORDER_STATUS_VALUES)[number];

/**
 * Where an order is in its life: placed, then approved, then delivered; or cancelled before it is delivered. One
 * shared instance per value, so that `status === OrderStatus.Placed` works and no other value can exist.
 */
export class OrderStatus {
  static readonly Placed = new OrderStatus('placed');
  static readonly Approved = new OrderStatus('approved');
  static readonly Delivered = new OrderStatus('delivered');
  static readonly Cancelled = new OrderStatus('cancelled');
  static readonly all: readonly OrderStatus[] = [
    OrderStatus.Placed,
    OrderStatus.Approved,
    OrderStatus.Delivered,
    OrderStatus.Cancelled,
  ];

  private constructor(readonly value: OrderStatusValue) {}

  /** The status named `raw`; anything else is refused with a domain error. */
  static from(raw: string): OrderStatus {
    const status = OrderStatus.all.find((candidate) => candidate.value === raw);
    if (!status) throw new InvalidOrderError(`status must be one of ${ORDER_STATUS_VALUES.join(', ')}`);
    return status;
  }

  toString(): string {
    return this.value;
  }
}

/** A step of an order's life: from which statuses it may be taken, and where it leads. */
export interface OrderStep {
  /** What the step is called in a refusal: `approved`, `delivered`, `cancelled`. */
  readonly name: 'approve' | 'deliver' | 'cancel';
  readonly from: readonly OrderStatus[];
  readonly to: OrderStatus;
}

/** Every step an order may take: placed → approved → delivered, or cancelled before it is delivered. */
export const ORDER_STEPS = {
  approve: { name: 'approve', from: [OrderStatus.Placed], to: OrderStatus.Approved },
  deliver: { name: 'deliver', from: [OrderStatus.Approved], to: OrderStatus.Delivered },
  cancel: { name: 'cancel', from: [OrderStatus.Placed, OrderStatus.Approved], to: OrderStatus.Cancelled },
} as const satisfies Record<string, OrderStep>;
