import { DiscoveryService } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import type { AppConfig } from '../config/app-config';
import type { ServiceInfo } from '../config/service-info';
import { AppError } from '../errors/app-error';
import { PLATFORM_ERROR_CODES } from '../errors/error-catalogue';
import { API_PREFIX } from '../config/api-prefix';
import { pathOf } from '../http/request-state';
import { OperationContracts } from '../http/operation-contract';
import { ErrorResponse, SHARED_ERROR_STATUSES, errorResponseObject } from './error-response';

export const OPENAPI_JSON_PATH = `${API_PREFIX}/openapi.json`;
export const DOCS_PATH = '/docs';

/**
 * What the Swagger UI page loads: the rest of swagger-ui-dist's folder (README, half a megabyte of source maps) is not
 * served.
 */
const DOCS_ASSETS = new Set([
  'swagger-ui.css',
  'swagger-ui-bundle.js',
  'swagger-ui-standalone-preset.js',
  'swagger-ui-init.js',
  'favicon-32x32.png',
  'favicon-16x16.png',
]);

/**
 * The OpenAPI 3 document, from the controllers and DTOs, its paths relative to the servers (which end in the API
 * prefix).
 */
export function buildOpenApiDocument(
  app: NestFastifyApplication,
  config: AppConfig,
  service: ServiceInfo,
): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setTitle(service.title)
    .setDescription(service.description)
    .setVersion(service.version)
    .addBearerAuth(
      {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'API key',
        description:
          'An API key: `Authorization: Bearer <key>`. Each operation needs the scope its `security` names (also ' +
          '`x-scope`): a key that does not grant it is answered 403 `insufficient_scope`.',
      },
      'bearer',
    )
    .addSecurityRequirements('bearer')
    // Without a configured address, a relative one: Swagger UI and clients resolve it against the address they fetched
    // the document from, so "Try it out" works from localhost, a LAN address or behind a proxy alike.
    .addServer(config.servers.production ?? API_PREFIX, config.servers.production ? 'Production' : 'This instance');
  if (config.servers.staging) builder.addServer(config.servers.staging, 'Staging');
  const document = SwaggerModule.createDocument(app, builder.build(), { extraModels: [ErrorResponse] });
  document.paths = Object.fromEntries(
    Object.entries(document.paths)
      .filter(([path]) => path.startsWith(`${API_PREFIX}/`))
      .map(([path, item]) => [path.slice(API_PREFIX.length), item]),
  );
  const contracts = OperationContracts.discovered(app.get(DiscoveryService));
  const tags = new Set<string>();
  for (const operation of operationsOf(document)) {
    addSharedAnswers(operation, contracts.errors);
    for (const tag of operation.tags ?? []) tags.add(tag);
  }
  document.tags = [...tags].sort().map((name) => ({ name }));
  contracts.describe(document);
  return document;
}

const REQUEST_ID_HEADER = {
  'X-Request-Id': {
    description:
      "The request's id: the client's own `X-Request-Id` when it sent a valid one, else a new UUID. Logged with the request.",
    schema: { type: 'string' },
  },
};

/** An operation of the document, as the core and the modules' document edits read it. */
export type Operation = Record<string, unknown> & { responses: Record<string, { headers?: object }>; tags?: string[] };

/** Every operation of `document`, without the path items' other members (`parameters`, say). */
export function operationsOf(document: OpenAPIObject): Operation[] {
  const members = Object.values(document.paths).flatMap((item) => Object.values(item) as unknown[]);
  return members.filter(
    (member): member is Operation => typeof member === 'object' && member !== null && 'responses' in member,
  );
}

/**
 * What every operation shares, added once here rather than on each route: the answers (a failure, and those the
 * modules' `@OperationContract()` add: a missing key, the rate limit, the database away), in order of status, and
 * `X-Request-Id` on every answer. A module's headers are its own document edit's (the rate limit's `RateLimit-*`).
 */
function addSharedAnswers(operation: Operation, errors: ReadonlyMap<number, readonly AppError[]>): void {
  const { responses } = operation;
  for (const status of new Set([...SHARED_ERROR_STATUSES, ...errors.keys()])) {
    responses[String(status)] ??= errorResponseObject(status, errors.get(status));
  }
  for (const response of Object.values(responses)) {
    response.headers = { ...response.headers, ...REQUEST_ID_HEADER };
  }
  operation.responses = Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)));
}

/**
 * Serves the document at `/v1/openapi.json` and Swagger UI at `/docs`, both without a key; before the app is
 * initialised.
 */
export function setupOpenApi(app: NestFastifyApplication, config: AppConfig, service: ServiceInfo): void {
  const fastify = app.getHttpAdapter().getInstance() as FastifyInstance;
  // These routes are Fastify's, not a controller's: mark them public and unlimited as they are declared.
  fastify.addHook('onRoute', (route) => {
    if (route.url === OPENAPI_JSON_PATH || route.url === DOCS_PATH || route.url.startsWith(`${DOCS_PATH}/`)) {
      route.config = { ...(route.config ?? {}), public: true, notRateLimited: true };
    }
  });
  SwaggerModule.setup(DOCS_PATH.slice(1), app, () => buildOpenApiDocument(app, config, service), {
    jsonDocumentUrl: OPENAPI_JSON_PATH,
    raw: ['json'],
    customSiteTitle: `${service.title} API`,
    // The operations' `x-` extensions (an operation's `x-stability`) shown beside them.
    swaggerOptions: { showExtensions: true },
  });
}

const DOCS_ASSETS_PREFIX = `${DOCS_PATH}/`;

/**
 * `/docs/...` serves only DOCS_ASSETS: anything else there is a 404 (`/docs/` too, as every path with a trailing
 * slash). Every other request leaves after one string comparison.
 */
export const serveOnlyDocsAssets: onRequestHookHandler = (request, _reply, done) => {
  if (!request.url.startsWith(DOCS_ASSETS_PREFIX)) return done();
  const path = pathOf(request.url);
  if (!DOCS_ASSETS.has(path.slice(DOCS_ASSETS_PREFIX.length))) {
    return done(
      new AppError('not_found', PLATFORM_ERROR_CODES.routeNotFound, `no route for ${request.method} ${path}`),
    );
  }
  done();
};
