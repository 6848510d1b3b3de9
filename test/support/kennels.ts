import { Body, Controller, HttpCode, Module, Post } from '@nestjs/common';
import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { IsString } from 'class-validator';
import { Table, type MigrationInterface, type QueryRunner } from 'typeorm';
import { SqlClient, generatedKeyColumn } from '@app/database';
import { Idempotent } from '@app/idempotency';
import { Responds, defineFeature } from '@app/platform';
import { DomainEvents, UnitOfWork, type DomainEvent } from '@app/platform/ports';

/*
 * A publisher of the tests' own, in a module of its own as a team's would be: kennels opens a kennel and publishes
 * kennels.kennel-opened in the same unit of work (keyed creates safe to retry).
 */
export const KENNEL_OPENED = 'kennels.kennel-opened';
export type KennelOpened = DomainEvent<typeof KENNEL_OPENED, { kennelId: bigint; name: string }>;

class CreateKennels1900000000000 implements MigrationInterface {
  async up(runner: QueryRunner): Promise<void> {
    await runner.createTable(
      new Table({
        name: 'kennels',
        columns: [generatedKeyColumn(runner), { name: 'name', type: 'varchar', length: '64' }],
      }),
    );
  }
  async down(): Promise<void> {}
}

@ApiSchema({ name: 'NewKennel' })
class NewKennel {
  @ApiProperty() @IsString() name: string;
}

@ApiSchema({ name: 'Kennel' })
class Kennel {
  @ApiProperty({ description: 'int64 as decimal text' }) id: string;
  @ApiProperty() name: string;
}

@Controller('kennels')
class KennelsController {
  constructor(
    private readonly db: SqlClient,
    private readonly unitOfWork: UnitOfWork,
    private readonly events: DomainEvents,
  ) {}

  @Post()
  @HttpCode(201)
  @Idempotent()
  @Responds(201, Kennel, { description: 'The kennel opened.' })
  open(@Body() body: NewKennel): Promise<Kennel> {
    return this.unitOfWork.run(async () => {
      const insert = this.db.dialect.insertReturningId('INSERT INTO kennels (name) VALUES ($1)');
      const id = this.db.dialect.insertedId(await this.db.write(insert, [body.name]));
      await this.events.publish<KennelOpened>({
        name: KENNEL_OPENED,
        version: 1,
        aggregateId: String(id),
        payload: { kennelId: id, name: body.name },
      });
      return { id: String(id), name: body.name };
    });
  }
}

@Module({ controllers: [KennelsController] })
class KennelsModule {}

/** `POST /v1/kennels {name}`: 201 `{id, name}`, publishing kennels.kennel-opened. */
export const kennelsFeature = defineFeature({
  name: 'kennels',
  module: () => KennelsModule,
  migrations: [CreateKennels1900000000000],
});
