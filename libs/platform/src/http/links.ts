import type { FastifyReply } from 'fastify';

/**
 * Sets `Location` to the path of a resource just created by this request:
 * the route's own path followed by the new id (`POST /v1/things` answers
 * `Location: /v1/things/42`), so no controller spells out its prefix.
 */
/**
 * Sets `Link: <...>; rel="next"` (RFC 8288) to this route's own path with
 * `query`: the request for the next page. Parameters left undefined are left out.
 */
export function setNextPageLink(
  reply: FastifyReply,
  query: Readonly<Record<string, string | number | undefined>>,
): void {
  const parameters = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined) parameters.append(name, String(value));
  reply.header('link', `<${reply.request.routeOptions.url}?${parameters}>; rel="next"`);
}

export function setCreatedLocation(reply: FastifyReply, id: number | bigint | string): void {
  reply.header('location', `${reply.request.routeOptions.url}/${id}`);
}
