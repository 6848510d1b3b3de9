import { DynamicModule, Module } from '@nestjs/common';
import { AppConfig, ConnectionGuard } from '@app/platform';
import { ConnectionLimits } from './connection-limits';
import { ConnectionLimitsSettings } from './connection-limits.settings';

/** The bounds on connections and on the requests waiting on each: the core's ConnectionGuard. */
@Module({})
export class ConnectionLimitsModule {
  static forRoot(config: AppConfig): DynamicModule {
    return {
      module: ConnectionLimitsModule,
      providers: [
        { provide: ConnectionLimitsSettings, useValue: ConnectionLimitsSettings.of(config.settings) },
        { provide: ConnectionGuard, useClass: ConnectionLimits },
      ],
      exports: [ConnectionGuard],
    };
  }
}
