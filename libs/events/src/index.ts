export { EVENTS_USAGE, runEventsCommand } from './cli/events.command';
export { Outbox } from './outbox';
export { EventsModule } from './events.module';
