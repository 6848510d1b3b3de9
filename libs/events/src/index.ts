import { defineCapability } from '@app/platform';
import { EventsModule } from './events.module';
import { EventsSettings } from './events.settings';
import { CreateEventsTables1795800000000 } from './migrations/1795800000000-create-events-tables';
import { SubscriptionsSeenAt1795900000000 } from './migrations/1795900000000-subscriptions-seen-at';
import { OutboxRecord } from './outbox.record';
import { ParkedEventRecord } from './parked-event.record';
import { SubscriptionRecord } from './subscription.record';

export { EVENTS_USAGE, runEventsCommand } from './cli/events.command';
export { Outbox } from './outbox';

/** Domain events as the application composes it: the outbox, the subscriptions' progress, and their dispatcher. */
export const eventsCapability = defineCapability({
  name: 'events',
  settings: (config) => EventsSettings.of(config.settings),
  module: (settings) => EventsModule.forRoot(settings),
  entities: [OutboxRecord, SubscriptionRecord, ParkedEventRecord],
  migrations: [CreateEventsTables1795800000000, SubscriptionsSeenAt1795900000000],
});
