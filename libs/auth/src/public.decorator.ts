import { WithRouteSettings } from '@app/platform';

/** Opts a route out of bearer authentication (health checks, the contract document). */
export const Public = (): MethodDecorator => WithRouteSettings({ public: true });
