import { Controller, HttpCode, Module, Post } from '@nestjs/common';
import { Body } from '@app/validation';
import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { IsString } from 'class-validator';
import { Table, type MigrationInterface, type QueryRunner } from 'typeorm';
import { DatabaseModule, SqlClient, generatedKeyColumn } from '@app/database';
import { EventsModule } from '@app/events';
import { IdempotencyModule, Idempotent } from '@app/idempotency';
import { Responds } from '@app/platform';
import { AggregateRoot } from '@app/platform/domain';
import { UnitOfWork, type DomainEvent } from '@app/platform/ports';

/*
 * A publisher of the tests' own, in a module of its own as a team's would be: kennels opens a kennel, which records
 * kennels.kennel-opened, and saves it in a unit of work (keyed creates safe to retry).
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

/** The aggregate, domain and repository in one for brevity: opened, it records its event. */
class KennelAggregate extends AggregateRoot {
  constructor(readonly name: string) {
    super();
    this.record(() => ({
      name: KENNEL_OPENED,
      version: 1,
      aggregateId: String(this.id),
      payload: { kennelId: this.id, name: this.name },
    }));
  }
}

@Controller('kennels')
class KennelsController {
  constructor(
    private readonly db: SqlClient,
    private readonly unitOfWork: UnitOfWork,
  ) {}

  @Post()
  @HttpCode(201)
  @Idempotent()
  @Responds(201, Kennel, { description: 'The kennel opened.' })
  async open(@Body() body: NewKennel): Promise<Kennel> {
    const insert = this.db.dialect.insertReturningId('INSERT INTO kennels (name) VALUES ($1)');
    const kennel = await this.unitOfWork.run(async () => {
      const opened = new KennelAggregate(body.name);
      this.db.persist(opened, () => ({
        sql: insert,
        parameters: [opened.name],
        inserted: (id) => opened.stored(id, 1),
      }));
      return opened;
    });
    return { id: String(kennel.id), name: kennel.name };
  }
}

/** `POST /v1/kennels {name}`: 201 `{id, name}`, publishing kennels.kennel-opened. */
@Module({
  imports: [DatabaseModule.forFeature({ migrations: [CreateKennels1900000000000] }), EventsModule, IdempotencyModule],
  controllers: [KennelsController],
})
export class KennelsModule {}
