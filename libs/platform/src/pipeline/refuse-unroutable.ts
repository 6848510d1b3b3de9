import { NotFoundException } from '@nestjs/common';
import type { onRequestHookHandler } from 'fastify';
import { AppError } from '../errors/app-error';
import { PLATFORM_ERROR_CODES } from '../errors/error-catalogue';
import { pathOf } from '../http/request-state';

/**
 * An unknown path or method is refused before a byte of its body is read (404, or 405 with `Allow`, from the error
 * filter); so is a trailing slash, on every path (`/v1/pets/` would otherwise reach getPet with an empty id).
 */
export const refuseUnroutable: onRequestHookHandler = (request, _reply, done) => {
  if (request.is404) return done(new NotFoundException());
  const path = pathOf(request.url);
  if (path.length > 1 && path.endsWith('/')) {
    return done(
      new AppError('not_found', PLATFORM_ERROR_CODES.routeNotFound, `no route for ${request.method} ${path}`),
    );
  }
  done();
};
