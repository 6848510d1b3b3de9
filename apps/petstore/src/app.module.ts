import { DynamicModule, Module } from '@nestjs/common';
import { RouterModule } from '@nestjs/core';
import { DatabaseModule } from '@app/database';
import { DeprecationModule } from '@app/deprecation';
import { API_PREFIX, AppConfig, PlatformModule, type Feature } from '@app/platform';
import { RateLimitModule } from '@app/rate-limit';
import { TracingModule } from '@app/tracing';
import { ValidationModule } from '@app/validation';
import { FEATURES } from './features';
import { PETSTORE_SERVICE } from './service-info';

/**
 * The composition root: the features' settings checked, then the platform core, the capability libraries (the
 * connection limits, the management port, security headers, CORS, tracing, request validation, deprecation, the
 * database, rate limiting; idempotency comes in with the features, as it brings a table) and the features.
 */
@Module({})
export class AppModule {
  /** `features` is the registry's list; tests may add a feature of their own. */
  static register(config: AppConfig, features: readonly Feature[] = FEATURES): DynamicModule {
    for (const feature of features) feature.checkSettings(config);
    const modules = features.map((feature) => feature.module);
    return {
      module: AppModule,
      imports: [
        PlatformModule.forRoot(config, PETSTORE_SERVICE),
        TracingModule.forRoot(config),
        ValidationModule,
        DeprecationModule,
        DatabaseModule.forRoot(config, features),
        RateLimitModule.forRoot(config),
        ...modules,
        // Every feature's routes under the one versioned prefix.
        RouterModule.register([{ path: API_PREFIX, children: modules }]),
      ],
    };
  }
}
