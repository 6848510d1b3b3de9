import { Module } from '@nestjs/common';
import { DatabaseModule } from '@app/database';
import { EventsModule } from '@app/events';
import { IdempotencyModule } from '@app/idempotency';
import { UnitOfWork } from '@app/platform/ports';
import { __Things__Service } from './application/__things-kebab__.service';
import { __Thing__Repository } from './domain/__thing-kebab__.repository';
import { __Things__Controller } from './http/__things-kebab__.controller';
import { __Thing__Record } from './infrastructure/__thing-kebab__.record';
import { __THINGS___MIGRATIONS } from './infrastructure/migrations';
import { Sql__Thing__Repository } from './infrastructure/sql-__thing-kebab__.repository';

/**
 * The application classes are plain TypeScript, built here from their ports and the unit of work (the events module's);
 * the idempotency module serves the create's `@Idempotent()`.
 */
@Module({
  imports: [
    DatabaseModule.forFeature({ entities: [__Thing__Record], migrations: __THINGS___MIGRATIONS }),
    EventsModule,
    IdempotencyModule,
  ],
  controllers: [__Things__Controller],
  providers: [
    { provide: __Thing__Repository, useClass: Sql__Thing__Repository },
// <no refs>
    {
      provide: __Things__Service,
      inject: [__Thing__Repository, UnitOfWork],
      useFactory: (__things__: __Thing__Repository, unitOfWork: UnitOfWork) =>
        new __Things__Service(__things__, unitOfWork),
    },
// </no refs>
// <refs>
    {
      provide: __Things__Service,
      inject: [__Thing__Repository, __EACH:port(__Port__)__, UnitOfWork],
      useFactory: (__things__: __Thing__Repository, __EACH:port(__ref__: __Port__)__, unitOfWork: UnitOfWork) =>
        new __Things__Service(__things__, __EACH:port(__ref__)__, unitOfWork),
    },
// </refs>
  ],
})
export class __Things__Module {}
