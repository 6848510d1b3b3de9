import type { IncomingMessage, ServerResponse } from 'node:http';
import type { DynamicModule } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import type { AppConfig } from '../config/app-config';
import { requestContext } from '../http/request-context';

/**
 * Structured JSON logs with pino on stdout: Nest's own log lines, and one line
 * per request with its id, method, route, status, latency and the caller's key
 * fingerprint. Headers and query strings are never serialised, so no
 * credential can reach a line.
 */
export function loggingModule(config: AppConfig): DynamicModule {
  return LoggerModule.forRoot({
    // Every path, including unknown ones (Fastify needs this pattern).
    forRoutes: ['{*splat}'],
    pinoHttp: {
      level: config.logLevel,
      // Fastify has already given the request its id (see requestIdOf); pino-http reuses it.
      serializers: {
        // The path only: query strings can carry what does not belong in logs (a key pasted as ?api_key=).
        req: (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, path: req.url.split('?', 1)[0] }),
        res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      },
      // Belt and braces: the serializers above already leave headers out.
      redact: { paths: ['req.headers', 'res.headers', '*.authorization'], remove: true },
      customProps: (req: IncomingMessage) => {
        const { route, principal } = requestContext(req);
        return { route, keyFingerprint: principal };
      },
      customLogLevel: (_req: IncomingMessage, res: ServerResponse, error?: Error) =>
        error || res.statusCode >= 500 ? 'error' : 'info',
      customSuccessMessage: () => 'request completed',
      customErrorMessage: () => 'request failed',
      // Nest's lines keep their own context; only the request line carries request fields.
      quietReqLogger: true,
    },
  });
}
