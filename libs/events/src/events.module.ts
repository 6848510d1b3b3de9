import { DynamicModule, Global, Module } from '@nestjs/common';
import { DomainEvents } from '@app/platform/ports';
import { Dispatcher } from './dispatcher';
import { EventsSettings } from './events.settings';
import { Outbox } from './outbox';
import { NatsRelay } from './relay/nats-relay';

/**
 * Domain events: the outbox behind the core's `DomainEvents` port, and the dispatcher that runs the subscriptions
 * after the commits. Global, so that a feature publishes and subscribes without importing this module.
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
        Dispatcher,
        NatsRelay,
      ],
      exports: [DomainEvents],
    };
  }
}
