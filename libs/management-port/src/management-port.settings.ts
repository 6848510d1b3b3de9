import { ConfigError, type AppConfig } from '@app/platform';

/** The management port's own variables. */
export class ManagementPortSettings {
  private constructor(
    readonly host: string,
    readonly port: number,
  ) {}

  /**
   * MANAGEMENT_PORT and MANAGEMENT_HOST (which defaults to HOST), or
   * `undefined` when unset: health and metrics then stay on the API's port.
   * Throws a ConfigError naming the variable.
   */
  static of({ settings, host, port }: AppConfig): ManagementPortSettings | undefined {
    const managementHost = settings.text('MANAGEMENT_HOST');
    if (settings.text('MANAGEMENT_PORT') === undefined) {
      if (managementHost !== undefined) throw new ConfigError('MANAGEMENT_HOST', 'needs MANAGEMENT_PORT');
      return undefined;
    }
    const managementPort = settings.integer('MANAGEMENT_PORT', 0, 0, 65535);
    if (managementPort === port && port !== 0) {
      throw new ConfigError('MANAGEMENT_PORT', `must differ from PORT (both ${port})`);
    }
    return new ManagementPortSettings(managementHost ?? host, managementPort);
  }
}
