import { DynamicModule, Module } from '@nestjs/common';
import { AppConfig, CrossOriginAccess } from '@app/platform';
import { Cors } from './cors';
import { CorsSettings } from './cors.settings';

/** CORS, when CORS_ORIGINS names at least one origin: the core's CrossOriginAccess. Unset, nothing is provided. */
@Module({})
export class CorsModule {
  static forRoot(config: AppConfig): DynamicModule {
    const settings = CorsSettings.of(config.settings);
    if (settings.origins.length === 0) return { module: CorsModule };
    return {
      module: CorsModule,
      providers: [
        { provide: CorsSettings, useValue: settings },
        { provide: CrossOriginAccess, useClass: Cors },
      ],
      exports: [CrossOriginAccess],
    };
  }
}
