import { Module } from '@nestjs/common';
// <refs>
import { UnitOfWork } from '@app/platform/ports';
// </refs>
import { __Things__Service } from './application/__things-kebab__.service';
import { __Thing__Repository } from './domain/__thing-kebab__.repository';
import { __Things__Controller } from './http/__things-kebab__.controller';
import { Sql__Thing__Repository } from './infrastructure/sql-__thing-kebab__.repository';

// <no refs>
/** The application classes are plain TypeScript, built here from the repository port. */
// </no refs>
// <refs>
/** The application classes are plain TypeScript, built here from their ports and the platform's unit of work. */
// </refs>
@Module({
  controllers: [__Things__Controller],
  providers: [
    { provide: __Thing__Repository, useClass: Sql__Thing__Repository },
// <no refs>
    {
      provide: __Things__Service,
      inject: [__Thing__Repository],
      useFactory: (__things__: __Thing__Repository) => new __Things__Service(__things__),
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
