import type { DomainEvent } from '@app/platform/ports';
import type { OrderEventPayload } from './order-event';

/** An order was placed for a pet (the pet, reserved, is `pending`): published in the order's transaction, once per order, never by a replay of a keyed request. A change of its payload's shape is a new version. */
export type OrderPlaced = DomainEvent<'store.order-placed', OrderEventPayload>;
