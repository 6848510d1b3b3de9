import { WithRouteSettings } from './route-config';

/** Leaves a route out of the rate limit (health checks and metrics, which monitors call on their own schedule). */
export const NotRateLimited = (): MethodDecorator => WithRouteSettings({ notRateLimited: true });
