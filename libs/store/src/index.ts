// The store module's public surface: what the app and other modules may use, and nothing else (a test fails on an
// export nothing outside the module imports).

export type { OrderApproved } from './domain/order-approved.event';
export type { OrderCancelled } from './domain/order-cancelled.event';
export type { OrderDelivered } from './domain/order-delivered.event';
export type { OrderPlaced } from './domain/order-placed.event';
export { ORDER_ERROR_CODES } from './domain/order.errors';
export { StoreModule } from './store.module';
