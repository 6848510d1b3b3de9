import type { DomainEvent } from '@app/platform/domain';
import type { OrderEventPayload } from './order-event';

/** An order was cancelled before it was delivered: its pet is `available` again. A change of its payload's shape is a new version. */
export type OrderCancelled = DomainEvent<'store.order-cancelled', OrderEventPayload>;
