import FindMyWay from 'find-my-way';
import type { FastifyInstance } from 'fastify';

/**
 * Every route the application serves, kept so that a request for a known path
 * with the wrong method can be answered 405 with an `Allow` header rather than
 * a 404. Fastify's own router only answers "no route".
 */
export class RouteIndex {
  private readonly router = FindMyWay();
  private readonly methods = new Set<string>();

  /** Records the routes of `instance` as they are declared (call before the app is initialised). */
  static watch(instance: FastifyInstance): RouteIndex {
    const index = new RouteIndex();
    instance.addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) index.add(method, route.url);
    });
    return index;
  }

  add(method: string, path: string): void {
    this.methods.add(method);
    this.router.on(method as FindMyWay.HTTPMethod, path, () => undefined);
  }

  /** The methods served at `path` (empty when nothing is served there). */
  allowedMethods(path: string): string[] {
    return [...this.methods]
      .filter((method) => {
        const match = this.router.find(method as FindMyWay.HTTPMethod, path);
        // Nest does not serve a route whose parameter would be empty (`/v1/pets/`).
        return match !== null && Object.values(match.params).every((value) => value !== '');
      })
      .sort();
  }
}
