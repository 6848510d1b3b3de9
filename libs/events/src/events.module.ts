import { DynamicModule, Global, Module } from '@nestjs/common';
import { DomainEvents, UnitOfWork } from '@app/platform/ports';
import { Dispatcher } from './dispatcher';
import { EventsSettings } from './events.settings';
import { Outbox } from './outbox';
import { NatsRelay } from './relay/nats-relay';
import { OutboxUnitOfWork } from './unit-of-work';

/**
 * Domain events: the unit of work that commits a change with its aggregates' events (the core's `UnitOfWork` port),
 * the outbox behind its `DomainEvents` port, and the dispatcher that runs the subscriptions after the commits. Global,
 * so that a feature commits and subscribes without importing this module.
 */
@Global()
@Module({})
export class EventsModule {
  static forRoot(settings: EventsSettings): DynamicModule {
    return {
      module: EventsModule,
      providers: [
        { provide: EventsSettings, useValue: settings },
        Outbox,
        { provide: DomainEvents, useExisting: Outbox },
        { provide: UnitOfWork, useClass: OutboxUnitOfWork },
        Dispatcher,
        NatsRelay,
      ],
      exports: [DomainEvents, UnitOfWork],
    };
  }
}
