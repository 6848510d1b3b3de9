import { Module } from '@nestjs/common';
import { __Things__Service } from './application/__things-kebab__.service';
import { __Thing__Repository } from './domain/__thing-kebab__.repository';
import { __Things__Controller } from './http/__things-kebab__.controller';
import { Sql__Thing__Repository } from './infrastructure/sql-__thing-kebab__.repository';

/** The application classes are plain TypeScript, built here from the repository port. */
@Module({
  controllers: [__Things__Controller],
  providers: [
    { provide: __Thing__Repository, useClass: Sql__Thing__Repository },
    {
      provide: __Things__Service,
      inject: [__Thing__Repository],
      useFactory: (__things__: __Thing__Repository) => new __Things__Service(__things__),
    },
  ],
})
export class __Things__Module {}
