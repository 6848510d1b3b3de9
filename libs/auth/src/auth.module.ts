import { Module } from '@nestjs/common';
import { AppConfig } from '@app/platform';
import { ApiKeyVerifier } from './api-key.verifier';
import { BearerAuthGuard } from './bearer-auth.guard';
import { ConfiguredApiKeys } from './configured-api-keys';

/** Bearer API-key authentication for every route not marked `@Public()`. */
@Module({
  providers: [
    {
      provide: ApiKeyVerifier,
      inject: [AppConfig],
      useFactory: (config: AppConfig) => new ConfiguredApiKeys(config.apiKeys),
    },
    BearerAuthGuard,
  ],
})
export class AuthModule {}
