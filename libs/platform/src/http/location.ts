import type { FastifyReply } from 'fastify';

/**
 * Sets `Location` to the path of a resource just created by this request:
 * the route's own path followed by the new id (`POST /v1/things` answers
 * `Location: /v1/things/42`), so no controller spells out its prefix.
 */
export function setCreatedLocation(reply: FastifyReply, id: number | bigint | string): void {
  reply.header('location', `${reply.request.routeOptions.url}/${id}`);
}
