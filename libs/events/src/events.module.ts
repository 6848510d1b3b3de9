import { Module } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { DatabaseModule } from '@app/database';
import { DomainEvents, UnitOfWork } from '@app/platform/ports';
import { Dispatcher } from './dispatcher';
import { EventsSettings, eventsConfig } from './events.settings';
import { CreateEventsTables1795800000000 } from './migrations/1795800000000-create-events-tables';
import { SubscriptionsSeenAt1795900000000 } from './migrations/1795900000000-subscriptions-seen-at';
import { OutboxRecord } from './outbox.record';
import { ParkedEventRecord } from './parked-event.record';
import { SubscriptionRecord } from './subscription.record';
import { Outbox } from './outbox';
import { NatsRelay } from './relay/nats-relay';
import { OutboxUnitOfWork } from './unit-of-work';

/**
 * Domain events: the unit of work that commits a change with its aggregates' events (the core's `UnitOfWork` port),
 * the outbox behind its `DomainEvents` port, and the dispatcher that runs the subscriptions after the commits. A
 * feature that commits or subscribes imports it (one instance for the whole application, as every Nest module).
 */
@Module({
  imports: [
    ConfigModule.forFeature(eventsConfig),
    DatabaseModule.forFeature({
      entities: [OutboxRecord, SubscriptionRecord, ParkedEventRecord],
      migrations: [CreateEventsTables1795800000000, SubscriptionsSeenAt1795900000000],
    }),
  ],
  providers: [
    { provide: EventsSettings, useExisting: eventsConfig.KEY },
    Outbox,
    { provide: DomainEvents, useExisting: Outbox },
    { provide: UnitOfWork, useClass: OutboxUnitOfWork },
    Dispatcher,
    NatsRelay,
  ],
  exports: [DomainEvents, UnitOfWork],
})
export class EventsModule {}
