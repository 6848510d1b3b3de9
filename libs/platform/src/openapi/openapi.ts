import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import type { FastifyInstance } from 'fastify';
import type { AppConfig } from '../config/app-config';
import { ErrorResponse } from './error-response';

export const OPENAPI_JSON_PATH = '/v1/openapi.json';
export const DOCS_PATH = '/docs';
const API_PREFIX = '/v1';

/**
 * The OpenAPI 3 document, generated from the controllers and DTOs. Paths are
 * written relative to the servers, which end in `/v1`.
 */
export function buildOpenApiDocument(app: NestFastifyApplication, config: AppConfig): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setTitle('Pet Store')
    .setDescription('A pet catalogue: list, add and fetch pets. Every operation needs a bearer API key.')
    .setVersion('1.0.0')
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'API key', description: 'An API key: `Authorization: Bearer <key>`.' }, 'bearer')
    .addSecurityRequirements('bearer')
    .addServer(config.servers.production, 'Production');
  if (config.servers.staging) builder.addServer(config.servers.staging, 'Staging');
  const document = SwaggerModule.createDocument(app, builder.build(), { extraModels: [ErrorResponse] });
  document.paths = Object.fromEntries(
    Object.entries(document.paths)
      .filter(([path]) => path.startsWith(`${API_PREFIX}/`))
      .map(([path, item]) => [path.slice(API_PREFIX.length), item]),
  );
  return document;
}

/**
 * Serves the document at `/v1/openapi.json` and Swagger UI at `/docs`, both
 * without a key. Call before the application is initialised.
 */
export function setupOpenApi(app: NestFastifyApplication, config: AppConfig): void {
  const fastify = app.getHttpAdapter().getInstance() as FastifyInstance;
  // These routes are Fastify's, not a controller's: mark them public as they are declared.
  fastify.addHook('onRoute', (route) => {
    if (route.url === OPENAPI_JSON_PATH || route.url === DOCS_PATH || route.url.startsWith(`${DOCS_PATH}/`)) {
      route.config = { ...(route.config ?? {}), public: true };
    }
  });
  SwaggerModule.setup(DOCS_PATH.slice(1), app, () => buildOpenApiDocument(app, config), {
    jsonDocumentUrl: OPENAPI_JSON_PATH,
    raw: ['json'],
    customSiteTitle: 'Pet Store API',
  });
}
