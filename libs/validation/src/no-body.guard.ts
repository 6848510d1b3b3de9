import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { AppError, PLATFORM_ERROR_CODES } from '@app/platform';
import { bodyOf } from './body.decorator';
import { isPlainObject, unknownProperty, NO_PROPERTIES } from './dto-properties';

/**
 * A route without a `@Body()` parameter (DELETE, an order's approve, a generated action) takes no body: it runs
 * without one or with `{}`, and refuses anything else (400 invalid_body naming the first property) as a DTO that
 * declares no property would, where it used to accept and ignore it. A global guard, so that no route has to say so.
 */
@Injectable()
export class NoBodyGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const { body } = context.switchToHttp().getRequest<FastifyRequest>();
    if (body === undefined || bodyOf(context.getHandler()) !== undefined) return true;
    if (!isPlainObject(body)) {
      throw new AppError('invalid', PLATFORM_ERROR_CODES.invalidBody, 'this operation takes no request body');
    }
    const unknown = unknownProperty(body, NO_PROPERTIES);
    if (unknown === undefined) return true;
    throw new AppError(
      'invalid',
      PLATFORM_ERROR_CODES.invalidBody,
      `this operation takes no request body: unknown property '${unknown}'`,
    );
  }
}
