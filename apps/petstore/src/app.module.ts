import { DynamicModule, Module } from '@nestjs/common';
import { AuthModule } from '@app/auth';
import { AppConfig, DatabaseModule, PlatformModule } from '@app/platform';
import { PETS_MIGRATIONS, PetsModule } from '@app/pets';

/** The composition root: which modules make up the service. No logic lives here. */
@Module({})
export class AppModule {
  static register(config: AppConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        PlatformModule.forRoot(config),
        DatabaseModule.forRoot({ migrations: [...PETS_MIGRATIONS] }),
        AuthModule,
        PetsModule,
      ],
    };
  }
}
