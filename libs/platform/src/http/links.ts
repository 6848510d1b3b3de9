import type { FastifyReply } from 'fastify';

/**
 * `Link: <...>; rel="next"` (RFC 8288) to this route's path with `query`, undefined parameters left out. Written
 * directly, as URLSearchParams showed in a list request's profile (`npm run bench` measures the list).
 */
export function setNextPageLink(
  reply: FastifyReply,
  query: Readonly<Record<string, string | number | bigint | undefined>>,
): void {
  let parameters = '';
  for (const name in query) {
    const value = query[name];
    if (value !== undefined) parameters += `${parameters ? '&' : '?'}${name}=${encodeURIComponent(String(value))}`;
  }
  reply.header('link', `<${reply.request.routeOptions.url}${parameters}>; rel="next"`);
}

/**
 * `Location` of a resource this request created: the route's own path and the new id, so no controller spells out its
 * prefix.
 */
export function setCreatedLocation(reply: FastifyReply, id: number | bigint | string): void {
  reply.header('location', `${reply.request.routeOptions.url}/${id}`);
}
