import type { DomainEvent } from '@app/platform/domain';
import type { OrderEventPayload } from './order-event';

/** An order was placed for a pet (the pet, reserved, is `pending`): recorded once per order, never by a replay of a keyed request. A change of its payload's shape is a new version. */
export type OrderPlaced = DomainEvent<'store.order-placed', OrderEventPayload>;
