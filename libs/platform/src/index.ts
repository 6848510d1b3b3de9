export { textTable, type CommandOutput } from './cli/command-output';
export { AppConfig } from './config/app-config';
export { Settings, type Environment } from './config/settings';
export { ConfigError } from './config/config.error';
export { withoutCredentials } from './config/without-credentials';
export { loadConfig, readEnvironment } from './config/read-environment';
export { SERVICE_INFO, type ServiceInfo } from './config/service-info';
export { AppError } from './errors/app-error';
export { JSON_CONTENT_TYPE } from './errors/error-body';
export { FailureTranslators, type FailureTranslator } from './ports/failure-translators';
export { PLATFORM_ERROR_CODES } from './errors/error-catalogue';
export { Composition } from './composition/composition';
export {
  defineCapability,
  defineFeature,
  type Capability,
  type Feature,
  type Part,
  type Schema,
} from './composition/part';
export { API_PREFIX } from './config/api-prefix';
export { createHttpApplication } from './server/http-application';
export { setCreatedLocation, setNextPageLink } from './http/links';
export { Public } from './http/public.decorator';
export { Authenticator } from './ports/authenticator';
export { CallerLimit } from './ports/caller-limit';
export { RequestTracing } from './ports/request-tracing';
export { WithRouteSettings, routeSettingsOf } from './http/route-config';
export { SharedContract } from './ports/shared-contract';
export { pathOf } from './http/request-state';
export { RouteIndex } from './http/route-index';
export { Readiness, type ReadinessProbe } from './ports/readiness';
export { installGracefulShutdown } from './lifecycle/graceful-shutdown';
export { APP_LOGGER, logStartupFailure } from './logging/app-logger';
export { MetricsService } from './metrics/metrics.service';
export { ApiErrorResponses } from './openapi/error-response';
export { OPENAPI_JSON_PATH, operationsOf } from './openapi/openapi';
export { Responds } from './http/responds.decorator';
export { PlatformModule } from './platform.module';
