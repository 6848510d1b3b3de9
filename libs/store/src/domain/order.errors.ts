import { AppError } from '@app/platform/errors';
import type { OrderStatus, OrderStep } from './order-status';

export const ORDER_ERROR_CODES = {
  orderNotFound: 'order_not_found',
  invalidOrder: 'invalid_order',
  unknownPet: 'unknown_pet',
  petNotAvailable: 'pet_not_available',
  orderUnexpectedState: 'order_unexpected_state',
} as const;

export class OrderNotFoundError extends AppError {
  constructor(readonly orderId: bigint) {
    super('not_found', ORDER_ERROR_CODES.orderNotFound, `order ${orderId} does not exist`);
  }
}

/** An order that breaks a rule of the domain (quantity, ship date). */
export class InvalidOrderError extends AppError {
  constructor(message: string) {
    super('invalid', ORDER_ERROR_CODES.invalidOrder, message);
  }
}

/** An order for a pet the catalogue does not have: the request is well-formed, what it names is missing (422). */
export class UnknownPetError extends AppError {
  constructor(readonly petId: bigint) {
    super('unprocessable', ORDER_ERROR_CODES.unknownPet, `petId ${petId} names no pet`);
  }
}

/** An order for a pet that is not available now (reserved by another order, sold, or without a status). */
export class PetNotAvailableError extends AppError {
  constructor(readonly petId: bigint) {
    super('conflict', ORDER_ERROR_CODES.petNotAvailable, `pet ${petId} is not available`);
  }
}

/** A step the order's status does not allow: approving a cancelled order, delivering one not approved. */
export class OrderUnexpectedStateError extends AppError {
  constructor(orderId: bigint, status: OrderStatus, step: OrderStep) {
    super(
      'conflict',
      ORDER_ERROR_CODES.orderUnexpectedState,
      `order ${orderId} is ${status.value}: only an order ${step.from.map(String).join(' or ')} can be ` +
        `${step.to.value}`,
    );
  }
}
