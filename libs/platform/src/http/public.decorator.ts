import { WithRouteSettings } from './route-config';

/** Opts a route out of bearer authentication (health checks, metrics, the contract document). */
export const Public = (): MethodDecorator => WithRouteSettings({ public: true });
