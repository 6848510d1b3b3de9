import { applyDecorators, SetMetadata } from '@nestjs/common';
import { WithRouteSettings } from './route-config';

/** Where `@Public()` is kept, for the bearer guard (`Reflector.getAllAndOverride`). */
export const IS_PUBLIC_KEY = 'petstore:public';

/**
 * Opts a route out of bearer authentication (health checks, metrics, the contract document): the bearer guard reads
 * it, and so does the authentication the auth module runs before the body (from the route's Fastify config).
 */
export const Public = (): MethodDecorator =>
  applyDecorators(SetMetadata(IS_PUBLIC_KEY, true), WithRouteSettings({ public: true }));
