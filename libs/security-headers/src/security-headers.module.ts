import { DynamicModule, Module } from '@nestjs/common';
import { AppConfig, SecurityHeaders } from '@app/platform';
import { securityHeadersOf } from './security-headers';

/**
 * The core's SecurityHeaders, unless SECURITY_HEADERS=off (a gateway in front
 * adds them): then nothing is provided, none are sent and no step runs for
 * them. HSTS in production only.
 */
@Module({})
export class SecurityHeadersModule {
  static forRoot(config: AppConfig): DynamicModule {
    if (config.settings.oneOf('SECURITY_HEADERS', ['on', 'off'], 'on') === 'off')
      return { module: SecurityHeadersModule };
    return {
      module: SecurityHeadersModule,
      providers: [{ provide: SecurityHeaders, useValue: securityHeadersOf(config.nodeEnv === 'production') }],
      exports: [SecurityHeaders],
    };
  }
}
