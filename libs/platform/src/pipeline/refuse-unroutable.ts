import { NotFoundException } from '@nestjs/common';
import type { onRequestHookHandler } from 'fastify';
import { AppError } from '../errors/app-error';
import { PLATFORM_ERROR_CODES } from '../errors/error-catalogue';
import { pathOf } from '../http/request-state';

/**
 * Refuses at once what no route will take, before a byte of its body is read: an unknown path or method, however its
 * body is labelled (404, or 405 with `Allow`, from the error filter). A trailing slash is part of no route, on every
 * path and for every method (`/v1/pets/` would otherwise reach getPet with an empty id): 404.
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
