import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { EVERY_SCOPE } from '../domain/scope';

/** Who called, as a handler takes it with `@Principal()`: the key's name and the scopes it grants, never the key. */
export interface CallerPrincipal {
  readonly name: string;
  readonly scopes: readonly string[];
}

/** The caller of the request, for a handler (`@Principal() caller: CallerPrincipal`); none on a `@Public()` route. */
export const Principal = createParamDecorator(
  (_data: unknown, context: ExecutionContext): CallerPrincipal | undefined => {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    return request.caller === undefined ? undefined : { name: request.caller, scopes: request.scopes ?? EVERY_SCOPE };
  },
);
