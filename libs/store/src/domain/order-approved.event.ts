import type { DomainEvent } from '@app/platform/domain';
import type { OrderEventPayload } from './order-event';

/** An order was approved (its pet stays `pending`). A change of its payload's shape is a new version. */
export type OrderApproved = DomainEvent<'store.order-approved', OrderEventPayload>;
