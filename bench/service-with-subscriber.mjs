// The built service as main.ts starts it (serve()), with one more module: another team's subscriber to
// pets.pet-created, which records each pet in a table of its own. BENCH_SUBSCRIBER says how it behaves (the bench's subscriber rows):
//   prompt: its statement and nothing else;   slow-before: waits 50 ms (an outbound call) before its statement;
//   slow-after: waits 100 ms after it, inside its transaction (rolled back at DATABASE_TRANSACTION_IDLE_MS, 50 ms,
//   then parked);   stuck: never settles (before its statement: EVENTS_HANDLER_TIMEOUT_MS ends each attempt);
//   throws: fails every event after its statement (undone, then parked).
import { createRequire } from 'node:module';

// The build's CommonJS, as main.js loads it (npm run bench builds first).
const require = createRequire(import.meta.url);
require('reflect-metadata');
const { Inject, Module } = require('@nestjs/common');
const { DomainEvents } = require('../dist/libs/platform/src/ports/index.js');
const { DatabaseModule, SqlClient } = require('../dist/libs/database/src/index.js');
const { EventsModule } = require('../dist/libs/events/src/index.js');
const { serve } = require('../dist/apps/petstore/src/serve.js');

const BEHAVIOUR = process.env.BENCH_SUBSCRIBER ?? 'slow-before';
const wait = (ms) => new Promise((resolveWait) => setTimeout(resolveWait, ms));

class CreateBenchSeen1990000000000 {
  name = 'CreateBenchSeen1990000000000';
  async up(runner) {
    await runner.query('CREATE TABLE bench_seen (event_id varchar(36) PRIMARY KEY, pet_id varchar(20) NOT NULL)');
  }
  async down() {}
}

class BenchSubscriberModule {
  constructor(events, db) {
    const insert = db.dialect.statement('INSERT INTO bench_seen (event_id, pet_id) VALUES ($1, $2)');
    events.subscribe({
      subscriber: 'bench.pets-seen',
      event: 'pets.pet-created',
      async handle(event) {
        if (BEHAVIOUR === 'stuck') await new Promise(() => undefined);
        if (BEHAVIOUR === 'slow-before') await wait(50);
        await db.write(insert, [event.id, event.aggregateId]);
        if (BEHAVIOUR === 'slow-after') await wait(100);
        if (BEHAVIOUR === 'throws') throw new Error('this subscriber fails every event');
      },
    });
  }
}
Inject(DomainEvents)(BenchSubscriberModule, undefined, 0);
Inject(SqlClient)(BenchSubscriberModule, undefined, 1);
Module({ imports: [DatabaseModule.forFeature({ migrations: [CreateBenchSeen1990000000000] }), EventsModule] })(
  BenchSubscriberModule,
);

await serve(BenchSubscriberModule);
