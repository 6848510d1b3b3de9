import { Module } from '@nestjs/common';
import { DatabaseModule } from '@app/database';
import { EventsModule } from '@app/events';
import { IdempotencyModule } from '@app/idempotency';
import { PetsModule } from '@app/pets';
import { UnitOfWork } from '@app/platform/ports';
import { InventoryService } from './application/inventory.service';
import { OrdersService } from './application/orders.service';
import { InventoryRepository } from './domain/inventory.repository';
import { OrderRepository } from './domain/order.repository';
import { PetDirectory } from './domain/pet-directory';
import { InventoryController } from './http/inventory.controller';
import { OrdersController } from './http/orders.controller';
import { InventoryCountRecord, InventoryPetRecord } from './infrastructure/inventory.record';
import { InventorySubscriptions } from './infrastructure/inventory.subscriptions';
import { STORE_MIGRATIONS } from './infrastructure/migrations';
import { OrderRecord } from './infrastructure/order.record';
import { PetDirectoryAdapter } from './infrastructure/pet-directory.adapter';
import { SqlInventoryRepository } from './infrastructure/sql-inventory.repository';
import { SqlOrderRepository } from './infrastructure/sql-order.repository';

/**
 * The store: orders for pets, and the inventory. The application classes are plain TypeScript, built here from their
 * ports; the pets module is reached through its PetCatalog only.
 */
@Module({
  imports: [
    DatabaseModule.forFeature({
      entities: [OrderRecord, InventoryCountRecord, InventoryPetRecord],
      migrations: STORE_MIGRATIONS,
    }),
    EventsModule,
    IdempotencyModule,
    PetsModule,
  ],
  controllers: [OrdersController, InventoryController],
  providers: [
    { provide: PetDirectory, useClass: PetDirectoryAdapter },
    { provide: OrderRepository, useClass: SqlOrderRepository },
    { provide: InventoryRepository, useClass: SqlInventoryRepository },
    {
      provide: OrdersService,
      inject: [OrderRepository, PetDirectory, UnitOfWork],
      useFactory: (orders: OrderRepository, pets: PetDirectory, unitOfWork: UnitOfWork) =>
        new OrdersService(orders, pets, unitOfWork),
    },
    {
      provide: InventoryService,
      inject: [InventoryRepository],
      useFactory: (inventory: InventoryRepository) => new InventoryService(inventory),
    },
    InventorySubscriptions,
  ],
})
export class StoreModule {}
