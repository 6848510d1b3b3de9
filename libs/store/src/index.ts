// The store module's public surface: what the app and other modules may use, and nothing else (a test fails on an
// export nothing outside the module imports).
import { defineFeature } from '@app/platform';
import { ORDER_ERROR_CODES } from './domain/order.errors';
import { InventoryCountRecord, InventoryPetRecord } from './infrastructure/inventory.record';
import { STORE_MIGRATIONS } from './infrastructure/migrations';
import { OrderRecord } from './infrastructure/order.record';
import { StoreModule } from './store.module';

export type { OrderApproved } from './domain/order-approved.event';
export type { OrderCancelled } from './domain/order-cancelled.event';
export type { OrderDelivered } from './domain/order-delivered.event';
export type { OrderPlaced } from './domain/order-placed.event';

/** The store as the application composes it: its routes under `/v1/store`, and its tables. */
export const storeFeature = defineFeature({
  name: 'store',
  module: () => StoreModule,
  entities: [OrderRecord, InventoryCountRecord, InventoryPetRecord],
  migrations: STORE_MIGRATIONS,
  errorCodes: ORDER_ERROR_CODES,
});
