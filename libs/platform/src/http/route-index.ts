import FindMyWay from 'find-my-way';
import type { FastifyInstance } from 'fastify';

/**
 * Every route served: a known path asked with another method is answered 405 with `Allow` (Fastify's router says only
 * "no route"), and CORS and the document know what is served.
 */
export class RouteIndex {
  private readonly router = FindMyWay();
  private readonly served: Array<{ method: string; path: string }> = [];

  /** Records the routes of `instance` as they are declared (call before the app is initialised). */
  static watch(instance: FastifyInstance): RouteIndex {
    const index = new RouteIndex();
    instance.addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) index.add(method, route.url);
    });
    return index;
  }

  add(method: string, path: string): void {
    this.served.push({ method, path });
    this.router.on(method as FindMyWay.HTTPMethod, path, () => undefined);
  }

  /** Every route, as `{ method, path }` with Fastify's path template (`/v1/things/:thingId`). */
  routes(): ReadonlyArray<{ method: string; path: string }> {
    return this.served;
  }

  /** Every method some route serves, in alphabetical order. */
  methods(): string[] {
    return [...new Set(this.served.map((route) => route.method))].sort();
  }

  /** The methods served at `path` (empty when nothing is served there). */
  allowedMethods(path: string): string[] {
    return this.methods().filter((method) => {
      const match = this.router.find(method as FindMyWay.HTTPMethod, path);
      // Nest does not serve a route whose parameter would be empty (`/v1/things/`).
      return match !== null && Object.values(match.params).every((value) => value !== '');
    });
  }
}
