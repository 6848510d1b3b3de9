import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiResponse, ApiSchema } from '@nestjs/swagger';
import type { AppError } from '../errors/app-error';
import type { ErrorBody } from '../errors/error-body';
import { PLATFORM_ERROR_CODES as CODES, STATUS_OF_KIND } from '../errors/error-catalogue';
import { MAX_BODY_BYTES } from '../http/http-limits';

/** The Error schema of the contract, for the OpenAPI document. Each response shows an example of its own. */
@ApiSchema({ name: 'Error' })
export class ErrorResponse implements ErrorBody {
  @ApiProperty({ description: 'Machine-readable error code, stable across releases (see the README catalogue).' })
  code: string;

  @ApiProperty({ description: 'Human-readable description; for validation errors it names the field.' })
  message: string;

  @ApiProperty({ type: 'integer', description: 'The HTTP status code of the response.' })
  status: number;
}

type Headers = Record<string, { description: string; schema: object }>;

const RETRY_AFTER: Headers = {
  'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer' } },
};

/**
 * What each status means, with the headers it carries and, where the core answers it itself, a typical body; the
 * modules give the examples of the statuses they answer every operation with (their `@OperationContract()`).
 */
const ERROR_RESPONSES: Record<number, { description: string; headers?: Headers; example?: ErrorBody }> = {
  400: {
    description: 'The request has missing or invalid values (the message names the field).',
    example: { code: CODES.invalidParameter, message: 'limit must be an integer from 1 to 100', status: 400 },
  },
  401: {
    description: 'The API key is missing or invalid.',
    headers: {
      'WWW-Authenticate': {
        description: 'The scheme and realm, with error="invalid_token" when a key was sent.',
        schema: { type: 'string' },
      },
    },
  },
  403: {
    description: "The API key is valid, but it does not carry the operation's scope.",
    headers: {
      'WWW-Authenticate': {
        description: 'RFC 6750: error="insufficient_scope" and the scope the operation needs.',
        schema: { type: 'string' },
      },
    },
  },
  404: {
    description: 'The requested resource could not be found.',
    example: { code: CODES.routeNotFound, message: 'no route for GET /v1/nothing', status: 404 },
  },
  409: {
    description:
      'The request conflicts with stored data or with another request still being processed (the code says which; Retry-After when a retry may succeed).',
    headers: RETRY_AFTER,
  },
  413: {
    description: 'The request body is larger than 16 KiB.',
    example: {
      code: CODES.payloadTooLarge,
      message: `request body must not exceed ${MAX_BODY_BYTES} bytes`,
      status: 413,
    },
  },
  415: {
    description: 'The request body is not application/json.',
    example: { code: CODES.unsupportedMediaType, message: 'Content-Type must be application/json', status: 415 },
  },
  422: {
    description: 'The request is well formed but cannot be processed as it stands (the code says why).',
  },
  429: {
    description: 'Too many requests; the code says which limit was reached.',
    headers: RETRY_AFTER,
  },
  500: {
    description: 'An unexpected failure; its details are logged, not returned.',
    example: { code: CODES.internalError, message: 'internal server error', status: 500 },
  },
  503: {
    description: 'The service cannot serve the request right now; the code says why.',
    headers: RETRY_AFTER,
  },
};

/** The answer every operation may give whatever it does, besides those modules add (their `@OperationContract()`). */
export const SHARED_ERROR_STATUSES = [500] as const;

/** An error as the example body of its answer. */
function bodyOf(error: AppError): ErrorBody {
  return { code: error.code, message: error.message, status: STATUS_OF_KIND[error.kind] };
}

/**
 * The OpenAPI response of an Error answer with `status`; with `errors`, the codes it may carry, the first as the
 * example.
 */
export function errorResponseObject(status: number, errors: readonly AppError[] = []) {
  const { description, headers, example } = ERROR_RESPONSES[status];
  const body = errors.length > 0 ? bodyOf(errors[0]) : example;
  const codes = new Set([...errors.map((error) => error.code), ...(example ? [example.code] : [])]);
  return {
    description: `${description} Codes: ${[...codes].join(', ')}.`,
    ...(headers ? { headers } : {}),
    content: {
      'application/json': { schema: { $ref: '#/components/schemas/Error' }, ...(body ? { example: body } : {}) },
    },
  };
}

/**
 * Documents each status as an Error response with an example body; a route's own error (`new PetNotFoundError(42)`)
 * shows as its status's example. What every operation shares (500, what modules' `@OperationContract()` add) need not be listed.
 */
export function ApiErrorResponses(...entries: Array<number | AppError>): MethodDecorator {
  return applyDecorators(
    ...entries.map((entry) => {
      const status = typeof entry === 'number' ? entry : STATUS_OF_KIND[entry.kind];
      const { description, headers, example } = ERROR_RESPONSES[status];
      const own = typeof entry === 'number' ? example : bodyOf(entry);
      return ApiResponse({ status, type: ErrorResponse, description, headers, example: own });
    }),
  ) as MethodDecorator;
}
