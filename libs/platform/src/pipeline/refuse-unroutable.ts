import { NotFoundException } from '@nestjs/common';
import type { onRequestHookHandler } from 'fastify';
import { AppError } from '../errors/app-error';
import { PLATFORM_ERROR_CODES } from '../errors/error-catalogue';

/**
 * Refuses at once what no route will take, before a byte of its body is read:
 * an HTTP/1.1 request without `Host` (400), and an unknown path or method,
 * however its body is labelled (404, or 405 with `Allow`, from the error filter).
 */
export const refuseUnroutable: onRequestHookHandler = (request, _reply, done) => {
  if (request.raw.httpVersion === '1.1' && request.headers.host === undefined) {
    return done(
      new AppError('invalid', PLATFORM_ERROR_CODES.badRequest, 'an HTTP/1.1 request must carry a Host header'),
    );
  }
  if (request.is404) return done(new NotFoundException());
  done();
};
