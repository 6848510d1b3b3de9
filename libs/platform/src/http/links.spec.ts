import type { FastifyReply } from 'fastify';
import { describe, expect, it } from 'vitest';
import { setCreatedLocation, setNextPageLink } from './links';

/** The headers a reply for a request to `route` was given. */
function replyTo(route: string): { reply: FastifyReply; headers: Record<string, string> } {
  const headers: Record<string, string> = {};
  const reply = {
    request: { routeOptions: { url: route } },
    header: (name: string, value: string) => (headers[name] = value),
  };
  return { reply: reply as unknown as FastifyReply, headers };
}

describe('setNextPageLink', () => {
  it('links the route itself with the parameters given, in their order, leaving undefined ones out', () => {
    const { reply, headers } = replyTo('/v1/pets');
    setNextPageLink(reply, { limit: 20, status: undefined, after: 40 });
    expect(headers).toEqual({ link: '</v1/pets?limit=20&after=40>; rel="next"' });
  });

  it('percent-encodes the values', () => {
    const { reply, headers } = replyTo('/v1/things');
    setNextPageLink(reply, { q: 'a b&c=d/é', after: 7 });
    expect(headers).toEqual({ link: '</v1/things?q=a%20b%26c%3Dd%2F%C3%A9&after=7>; rel="next"' });
  });

  it('links the bare route when no parameter is defined', () => {
    const { reply, headers } = replyTo('/v1/things');
    setNextPageLink(reply, { status: undefined });
    expect(headers).toEqual({ link: '</v1/things>; rel="next"' });
  });
});

describe('setCreatedLocation', () => {
  it('is the route followed by the new id', () => {
    const { reply, headers } = replyTo('/v1/pets');
    setCreatedLocation(reply, 42n);
    expect(headers).toEqual({ location: '/v1/pets/42' });
  });
});
