import { DynamicModule, Module } from '@nestjs/common';
import { AppConfig, ManagementListener } from '@app/platform';
import { ManagementPort } from './management-port';
import { ManagementPortSettings } from './management-port.settings';

/** The core's ManagementListener, when MANAGEMENT_PORT is set. Unset, nothing is provided. */
@Module({})
export class ManagementPortModule {
  static forRoot(config: AppConfig): DynamicModule {
    const settings = ManagementPortSettings.of(config);
    if (!settings) return { module: ManagementPortModule };
    return {
      module: ManagementPortModule,
      providers: [
        { provide: ManagementPortSettings, useValue: settings },
        { provide: ManagementListener, useClass: ManagementPort },
      ],
      exports: [ManagementListener],
    };
  }
}
