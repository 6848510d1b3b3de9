import { CreateStoreOrders1795847634957 } from './1795847634957-create-store-orders';
import { CreateStoreInventory1795847634958 } from './1795847634958-create-store-inventory';
import { StoreOrdersVersion1796000000001 } from './1796000000001-store-orders-version';

/** The module's migrations, oldest first. */
export const STORE_MIGRATIONS = [
  CreateStoreOrders1795847634957,
  CreateStoreInventory1795847634958,
  StoreOrdersVersion1796000000001,
];
