import type { IncomingMessage } from 'node:http';
import type { onRequestHookHandler } from 'fastify';
import { AppError } from '../errors/app-error';
import { PLATFORM_ERROR_CODES } from '../errors/error-catalogue';
import { routeSettingsOf } from '../http/route-config';
import { pathOf } from '../http/request-state';

/** Marks a request that arrived on the management port. */
const MANAGEMENT = Symbol('arrived on the management port');

type ManagementRequest = IncomingMessage & { [MANAGEMENT]?: true };

/** Called by the management port's listener (server/management-port.ts) on each of its requests. */
export function markAsManagement(request: IncomingMessage): void {
  (request as ManagementRequest)[MANAGEMENT] = true;
}

/**
 * The request pipeline's step for MANAGEMENT_PORT: a monitors' route asked on
 * the API's port, or any other route on the management port, is answered as
 * an unknown route (404 `route_not_found`, no key asked for).
 */
export const servesOnlyItsOwnPort: onRequestHookHandler = (request, _reply, done) => {
  const forMonitors = routeSettingsOf(request).management === true;
  const onManagementPort = (request.raw as ManagementRequest)[MANAGEMENT] === true;
  if (forMonitors === onManagementPort) return done();
  done(
    new AppError(
      'not_found',
      PLATFORM_ERROR_CODES.routeNotFound,
      `no route for ${request.method} ${pathOf(request.url)}`,
    ),
  );
};
