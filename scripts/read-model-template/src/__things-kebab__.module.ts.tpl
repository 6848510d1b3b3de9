import { Module } from '@nestjs/common';
import { DatabaseModule } from '@app/database';
import { EventsModule } from '@app/events';
import { __Things__Service } from './application/__things-kebab__.service';
import { __Thing__Repository } from './domain/__thing-kebab__.repository';
import { __Things__Controller } from './http/__things-kebab__.controller';
import { __Things__Subscriptions } from './infrastructure/__things-kebab__.subscriptions';
import { __Thing__Record } from './infrastructure/__thing-kebab__.record';
import { __THINGS___MIGRATIONS } from './infrastructure/migrations';
import { Sql__Thing__Repository } from './infrastructure/sql-__thing-kebab__.repository';

/**
 * A read model: its subscriptions keep its table from the events they name, and its controller serves that table.
 * The application class is plain TypeScript, built here from the repository port; the events module delivers.
 */
@Module({
  imports: [
    DatabaseModule.forFeature({ entities: [__Thing__Record], migrations: __THINGS___MIGRATIONS }),
    EventsModule,
  ],
  controllers: [__Things__Controller],
  providers: [
    { provide: __Thing__Repository, useClass: Sql__Thing__Repository },
    {
      provide: __Things__Service,
      inject: [__Thing__Repository],
      useFactory: (__things__: __Thing__Repository) => new __Things__Service(__things__),
    },
    __Things__Subscriptions,
  ],
})
export class __Things__Module {}
