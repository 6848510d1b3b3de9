import { registerAs } from '@nestjs/config';
import { AppConfig } from '../config/app-config';
import { ConnectionLimits } from './connection-limits/connection-limits';
import { CorsSettings } from './cors';
import { ManagementPort } from './management-port';
import { SecurityHeaders } from './security-headers';

/**
 * The settings of the server's edge, which no module imports and every request meets, in the order it meets them (the
 * pipeline, pipeline/request-pipeline.ts, installs them so): the bounds on connections (MAX_CONNECTIONS), the security
 * headers (SECURITY_HEADERS), the monitors' own port (MANAGEMENT_PORT, MANAGEMENT_HOST) and CORS (CORS_ORIGINS). Read
 * once, as the application is created (`edgeConfig`, Nest's `edge` namespace): a bad value stops it, naming the
 * variable.
 */
export class EdgeSettings {
  readonly connections: ConnectionLimits;
  /** `undefined`: SECURITY_HEADERS=off. */
  readonly securityHeaders?: SecurityHeaders;
  /** `undefined`: health and metrics on the API's port. */
  readonly management?: ManagementPort;
  readonly cors: CorsSettings;

  constructor(config: AppConfig) {
    this.connections = ConnectionLimits.of(config.settings);
    this.securityHeaders = SecurityHeaders.of(config);
    this.management = ManagementPort.of(config);
    this.cors = CorsSettings.of(config.settings);
  }
}

/** The edge's settings as Nest's configuration names them (`edge`): read from the environment when the application starts. */
export const edgeConfig = registerAs(
  'edge',
  (): EdgeSettings => new EdgeSettings(AppConfig.fromEnvironment(process.env)),
);
