import { applyDecorators } from '@nestjs/common';
import { Public } from './public.decorator';
import { WithRouteSettings } from './route-config';

/**
 * A route for monitors (health checks, metrics): public, never rate limited, and served on the management port alone
 * when MANAGEMENT_PORT is set.
 */
export const ForMonitors = (): MethodDecorator =>
  applyDecorators(Public(), WithRouteSettings({ notRateLimited: true, management: true }));
