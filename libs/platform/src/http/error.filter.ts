import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger, NotFoundException } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { pathOf } from './request-state';
import { RouteIndex } from './route-index';
import { MAX_BODY_BYTES } from './http-limits';
import { AppError } from '../errors/app-error';
import { FailureTranslations } from './failure-translator';
import { sendError, type ErrorBody } from '../errors/error-body';
import { PLATFORM_ERROR_CODES as CODES, RETRY_AFTER_SECONDS, STATUS_OF_KIND } from '../errors/error-catalogue';

/** The code of a 4xx that reached us without a more specific one. */
const CODE_OF_STATUS: Readonly<Record<number, string>> = {
  404: CODES.routeNotFound,
  405: CODES.methodNotAllowed,
  413: CODES.payloadTooLarge,
  415: CODES.unsupportedMediaType,
};

/** Fastify's own request errors, by their `code`, in the contract's words. */
const FASTIFY_ERRORS: Readonly<Record<string, { code: string; message: string }>> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: {
    code: CODES.unsupportedMediaType,
    message: 'Content-Type must be application/json',
  },
  FST_ERR_CTP_BODY_TOO_LARGE: {
    code: CODES.payloadTooLarge,
    message: `request body must not exceed ${MAX_BODY_BYTES} bytes`,
  },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: CODES.invalidBody, message: 'request body must be a JSON object' },
  FST_ERR_CTP_INVALID_JSON_BODY: {
    code: CODES.malformedJson,
    message: 'request body is not valid JSON, or uses a forbidden key (__proto__ or constructor.prototype)',
  },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
    code: CODES.badRequest,
    message: 'Content-Length does not match the request body',
  },
  FST_ERR_BAD_URL: { code: CODES.badRequest, message: 'the URL is malformed (invalid percent-encoding)' },
};

/** The Error body of one of Fastify's own request errors, its router's included (raised before any hook or filter). */
export function fastifyErrorBody(error: { code?: string; statusCode?: number; message: string }): ErrorBody {
  const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400;
  const known = FASTIFY_ERRORS[error.code ?? ''];
  return known
    ? { ...known, status }
    : { code: CODE_OF_STATUS[status] ?? CODES.badRequest, message: error.message, status };
}

/**
 * What a request whose client closed the connection before its request arrived whole failed with (Node's `aborted`,
 * code ECONNRESET, as the body was read): the client's doing, whatever its code says, and never delivered. Not a
 * failure of the service, and not a capability's (a lost database connection also says ECONNRESET).
 */
const CLIENT_LEFT: ErrorBody = {
  code: CODES.badRequest,
  message: 'the client closed the connection before its request arrived whole',
  status: 400,
};

/** Destroyed before its end was read: `complete` is no witness, as it stays false on some requests that ended whole. */
function clientLeft(request: FastifyRequest): boolean {
  return request.raw.readableAborted;
}

/**
 * The one global filter: whatever was thrown leaves as `{code, message, status}`, `status` the HTTP status. Only a 5xx
 * is logged in full, and its details never reach the client.
 */
@Catch()
export class ErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger('ErrorFilter');

  constructor(
    private readonly routes: RouteIndex,
    private readonly failures: FailureTranslations,
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const request = host.switchToHttp().getRequest<FastifyRequest>();
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const body = clientLeft(request) ? CLIENT_LEFT : this.toErrorBody(exception, request, reply);
    request.errorCode = body.code;
    if (body.code === CODES.internalError) {
      this.logger.error({
        msg: 'unexpected failure',
        // The id the request's own line and its answer carry: an operator finds the cause of a 500 by it.
        reqId: request.id,
        err: this.failures.loggable(exception),
        method: request.method,
        path: pathOf(request.url),
      });
    }
    sendError(reply, body);
  }

  private toErrorBody(exception: unknown, request: FastifyRequest, reply: FastifyReply): ErrorBody {
    if (exception instanceof AppError) {
      if (exception.kind === 'unavailable') reply.header('retry-after', String(RETRY_AFTER_SECONDS));
      return { code: exception.code, message: exception.message, status: STATUS_OF_KIND[exception.kind] };
    }
    if (exception instanceof NotFoundException && request.is404) return this.unknownRoute(request, reply);
    if (exception instanceof HttpException && exception.getStatus() < 500) {
      const statusCode = exception.getStatus();
      return fastifyErrorBody({ code: fastifyCode(exception.cause), statusCode, message: messageOf(exception) });
    }
    // A capability's own failure (the database's: 503 when it is down, 409 on a unique constraint).
    const translated = this.failures.translate(exception);
    if (translated) {
      if (translated.warning) {
        this.logger.warn({
          msg: translated.warning,
          reqId: request.id,
          err: this.failures.loggable(exception),
          method: request.method,
          path: pathOf(request.url),
        });
      }
      return this.toErrorBody(translated.error, request, reply);
    }
    return { code: CODES.internalError, message: 'internal server error', status: 500 };
  }

  private unknownRoute(request: FastifyRequest, reply: FastifyReply): ErrorBody {
    const path = pathOf(request.url);
    const allowed = this.routes.allowedMethods(path);
    // A route that serves this method but found nothing (a missing static asset) is a 404.
    if (allowed.length > 0 && !allowed.includes(request.method)) {
      reply.header('allow', allowed.join(', '));
      return {
        code: CODES.methodNotAllowed,
        message: `${request.method} is not supported on ${path}; use ${allowed.join(', ')}`,
        status: 405,
      };
    }
    return { code: CODES.routeNotFound, message: `no route for ${request.method} ${path}`, status: 404 };
  }
}

function fastifyCode(cause: unknown): string | undefined {
  return typeof cause === 'object' && cause !== null && 'code' in cause && typeof cause.code === 'string'
    ? cause.code
    : undefined;
}

function messageOf(exception: HttpException): string {
  const response = exception.getResponse();
  if (typeof response === 'string') return response;
  const message = (response as { message?: unknown }).message;
  if (Array.isArray(message)) return message.join('; ');
  return typeof message === 'string' ? message : exception.message;
}
