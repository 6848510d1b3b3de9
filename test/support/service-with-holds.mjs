// The built service as main.ts starts it (serve()), with one more module, written as a team would write theirs
// (issue 53's load): holds. `POST /v1/holds {petId}` (keyed creates safe to retry) reserves an available pet and places a hold on it in
// one unit of work, the hold recording holds.hold-placed; `POST /v1/holds/{id}/cancel` cancels a placed hold and gives
// the pet back, the hold recording holds.hold-cancelled. A read model counts what the events say: one subscriber per event
// (pets.pet-created, holds.hold-placed, holds.hold-cancelled), each adding one to its row of holds_counts in its
// handler's transaction, so that after any crash every count equals what was committed.
// Plain JavaScript on the build's CommonJS, decorators applied as TypeScript would apply them.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
require('reflect-metadata');
const { Controller, HttpCode, Inject, Injectable, Module, Param, Post } = require('@nestjs/common');
const { ApiProperty } = require('@nestjs/swagger');
const { IsNumberString } = require('class-validator');
const platform = require('../../dist/libs/platform/src/index.js');
const { AppError } = require('../../dist/libs/platform/src/errors/app-error.js');
const { DomainEvents, UnitOfWork } = require('../../dist/libs/platform/src/ports/index.js');
const { AggregateRoot } = require('../../dist/libs/platform/src/domain/index.js');
const { DatabaseModule, SqlClient, generatedKeyColumn } = require('../../dist/libs/database/src/index.js');
const { EventsModule } = require('../../dist/libs/events/src/index.js');
const { IdempotencyModule, Idempotent } = require('../../dist/libs/idempotency/src/index.js');
const { Body } = require('../../dist/libs/validation/src/index.js');
const { PetCatalog, PetsModule } = require('../../dist/libs/pets/src/index.js');
const { serve } = require('../../dist/apps/petstore/src/serve.js');
const { Table } = require('typeorm');

const decorate = (decorators, target, key) =>
  Reflect.decorate(decorators, target, key, key ? Object.getOwnPropertyDescriptor(target, key) : undefined);

class CreateHolds1990000000100 {
  name = 'CreateHolds1990000000100';
  async up(runner) {
    await runner.createTable(
      new Table({
        name: 'holds',
        columns: [
          generatedKeyColumn(runner),
          { name: 'pet_id', type: 'bigint' },
          { name: 'status', type: 'varchar', length: '16' },
        ],
      }),
    );
    await runner.query('CREATE TABLE holds_counts (counter varchar(32) PRIMARY KEY, n bigint NOT NULL)');
  }
  async down() {}
}

class HoldNotPossible extends AppError {
  constructor(message) {
    super('conflict', 'hold_not_possible', message);
  }
}

class NewHold {}
decorate(
  [ApiProperty({ type: 'string', description: 'int64 as decimal text' }), IsNumberString()],
  NewHold.prototype,
  'petId',
);

class Hold {}
decorate([ApiProperty({ type: 'string' })], Hold.prototype, 'id');
decorate([ApiProperty({ type: 'string' })], Hold.prototype, 'petId');
decorate([ApiProperty({ type: 'string' })], Hold.prototype, 'status');

/** A hold of a pet: placed, then cancelled; each step recorded as its event. */
class HoldAggregate extends AggregateRoot {
  constructor(stored, petId, status) {
    super(stored);
    this.petId = petId;
    this.status = status;
  }

  static place(petId) {
    const hold = new HoldAggregate(undefined, petId, 'placed');
    hold.recordStep('holds.hold-placed');
    return hold;
  }

  cancel() {
    if (this.status !== 'placed') throw new HoldNotPossible(`hold ${this.id} is not placed`);
    this.status = 'cancelled';
    this.recordStep('holds.hold-cancelled');
  }

  recordStep(name) {
    this.record(() => ({
      name,
      version: 1,
      aggregateId: String(this.id),
      payload: { holdId: String(this.id), petId: this.petId },
    }));
  }
}

class HoldsController {
  constructor(db, unitOfWork, catalog) {
    this.db = db;
    this.unitOfWork = unitOfWork;
    this.catalog = catalog;
    this.sql = {
      place: db.dialect.insertReturningId("INSERT INTO holds (pet_id, status) VALUES ($1, 'placed')"),
      cancel: db.dialect.statement("UPDATE holds SET status = 'cancelled' WHERE id = $1 AND status = 'placed'"),
      byId: db.dialect.statement('SELECT CAST(pet_id AS TEXT) AS "petId", status FROM holds WHERE id = $1'),
    };
  }

  async place(body) {
    const hold = await this.unitOfWork.run(async () => {
      if (!(await this.catalog.reserve(BigInt(body.petId)))) {
        throw new HoldNotPossible(`pet ${body.petId} is not available`);
      }
      const placed = HoldAggregate.place(body.petId);
      this.db.persist(placed, () => ({
        sql: this.sql.place,
        parameters: [placed.petId],
        inserted: (id) => placed.stored(id, 1),
      }));
      return placed;
    });
    return { id: String(hold.id), petId: hold.petId, status: hold.status };
  }

  async cancel(id) {
    const hold = await this.unitOfWork.run(async () => {
      const [row] = await this.db.read(this.sql.byId, [id]);
      if (!row) throw new HoldNotPossible(`hold ${id} is not placed`);
      const found = new HoldAggregate({ id: BigInt(id), version: 1 }, row.petId, row.status);
      found.cancel();
      await this.catalog.release(BigInt(found.petId));
      // Guarded by the status it was read with: of two same-tick cancels, one changes the row, the other runs again.
      this.db.persist(found, () => ({ sql: this.sql.cancel, parameters: [id], updated: () => undefined }));
      return found;
    });
    return { id: String(hold.id), petId: hold.petId, status: hold.status };
  }
}
Reflect.defineMetadata('design:paramtypes', [NewHold], HoldsController.prototype, 'place');
Reflect.defineMetadata('design:paramtypes', [String], HoldsController.prototype, 'cancel');
Body()(HoldsController.prototype, 'place', 0);
Param('id')(HoldsController.prototype, 'cancel', 0);
const responds = (status, description) => platform.Responds(status, Hold, { description });
decorate([Post(), HttpCode(201), Idempotent(), responds(201, 'The hold placed.')], HoldsController.prototype, 'place');
decorate(
  [Post(':id/cancel'), HttpCode(200), responds(200, 'The hold cancelled.')],
  HoldsController.prototype,
  'cancel',
);
Controller('holds')(HoldsController);
[SqlClient, UnitOfWork, PetCatalog].forEach((token, n) => Inject(token)(HoldsController, undefined, n));

/** The read model: one subscriber per event, each counting in its own row, in its handler's transaction. */
class HoldsCounts {
  constructor(events, db) {
    const count = db.dialect.statement(
      'INSERT INTO holds_counts (counter, n) VALUES ($1, 1) ON CONFLICT (counter) DO UPDATE SET n = holds_counts.n + 1',
    );
    for (const event of ['pets.pet-created', 'holds.hold-placed', 'holds.hold-cancelled']) {
      events.subscribe({
        subscriber: `holds.count-${event.split('.')[1]}`,
        event,
        handle: () => db.write(count, [event]),
      });
    }
  }
}
Inject(DomainEvents)(HoldsCounts, undefined, 0);
Inject(SqlClient)(HoldsCounts, undefined, 1);
Injectable()(HoldsCounts);

class HoldsModule {}
Module({
  imports: [
    DatabaseModule.forFeature({ migrations: [CreateHolds1990000000100] }),
    EventsModule,
    IdempotencyModule,
    PetsModule,
  ],
  controllers: [HoldsController],
  providers: [HoldsCounts],
})(HoldsModule);

await serve(HoldsModule);
