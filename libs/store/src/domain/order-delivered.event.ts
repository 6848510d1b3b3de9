import type { DomainEvent } from '@app/platform/domain';
import type { OrderEventPayload } from './order-event';

/** An order was delivered: its pet is `sold`. A change of its payload's shape is a new version. */
export type OrderDelivered = DomainEvent<'store.order-delivered', OrderEventPayload>;
