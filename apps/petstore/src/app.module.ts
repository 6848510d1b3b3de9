import { DynamicModule, Module } from '@nestjs/common';
import { RouterModule } from '@nestjs/core';
import { API_PREFIX, AppConfig, Composition, PlatformModule, type Part } from '@app/platform';
import { COMPOSITION } from './composition';
import { PETSTORE_SERVICE } from './service-info';

/**
 * The composition root: every part's settings read (a bad one stops the start here, naming its variable), then the
 * platform core, the parts in the composition's order, and the features' routes under the one versioned prefix.
 */
@Module({})
export class AppModule {
  /** `parts` is the composition; tests may add a part of their own. */
  static register(config: AppConfig, parts: readonly Part[] = COMPOSITION): DynamicModule {
    const modules = Composition.of(parts, config).modules();
    return {
      module: AppModule,
      imports: [
        PlatformModule.forRoot(config, PETSTORE_SERVICE),
        ...modules.all,
        RouterModule.register([{ path: API_PREFIX, children: modules.features }]),
      ],
    };
  }
}
