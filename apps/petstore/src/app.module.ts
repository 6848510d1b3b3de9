import { Module, type DynamicModule, type Type } from '@nestjs/common';
import { ConfigModule } from '@nestjs/config';
import { RouterModule } from '@nestjs/core';
import { AuthModule } from '@app/auth';
import { DatabaseModule } from '@app/database';
import { DeprecationModule } from '@app/deprecation';
import { EventsModule } from '@app/events';
import { IdempotencyModule } from '@app/idempotency';
import { PetsModule } from '@app/pets';
import { API_PREFIX, PlatformModule } from '@app/platform';
import { RateLimitModule } from '@app/rate-limit';
import { StabilityModule } from '@app/stability';
import { StoreModule } from '@app/store';
import { TracingModule } from '@app/tracing';
import { ValidationModule } from '@app/validation';
import { PETSTORE_SERVICE } from './service-info';

/** The modules that serve routes, all under `/v1`: `npm run generate:module` adds a new one at the end. */
export const FEATURES: Type[] = [PetsModule, StoreModule];

/**
 * The service: Nest's configuration (each module reads its own namespace of it, from the environment and a `.env`
 * file, as the application starts: a bad variable stops the start, naming it), the platform core, the modules that
 * serve every route (tracing, validation, deprecation, stability, the database, events, the rate limit, idempotency,
 * authentication), and the features, their routes under the one versioned prefix.
 */
@Module({
  imports: [
    ConfigModule.forRoot({ isGlobal: true }),
    PlatformModule.forRoot(PETSTORE_SERVICE),
    TracingModule.forRoot(),
    ValidationModule,
    DeprecationModule,
    StabilityModule,
    DatabaseModule.forRoot(),
    EventsModule,
    // Before auth: Nest runs the global guards in their modules' order, and a 403 for a scope is counted.
    RateLimitModule,
    IdempotencyModule,
    AuthModule,
    ...FEATURES,
    RouterModule.register([{ path: API_PREFIX, children: FEATURES }]),
  ],
})
export class AppModule {
  /** The service with more features of its own (a test's, a harness's), their routes under `/v1` too. */
  static withFeatures(...features: Type[]): DynamicModule {
    return {
      module: AppModule,
      imports: [...features, RouterModule.register([{ path: API_PREFIX, children: features }])],
    };
  }
}
