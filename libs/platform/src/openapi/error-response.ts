import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiResponse, ApiSchema } from '@nestjs/swagger';
import type { ErrorBody } from '../errors/error-body';

/** The Error schema of the contract, for the OpenAPI document. */
@ApiSchema({ name: 'Error' })
export class ErrorResponse implements ErrorBody {
  @ApiProperty({
    description: 'Machine-readable error code, stable across releases (see the README catalogue).',
    example: 'invalid_parameter',
  })
  code: string;

  @ApiProperty({
    description: 'Human-readable description; for validation errors it names the field.',
    example: 'limit must be an integer from 1 to 100',
  })
  message: string;

  @ApiProperty({ type: 'integer', description: 'The HTTP status code of the response.', example: 400 })
  status: number;
}

const RETRY_AFTER = { 'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer' } } };

const ERROR_RESPONSES: Record<
  number,
  { description: string; headers?: Record<string, { description: string; schema: object }> }
> = {
  400: { description: 'The request has missing or invalid values (the message names the field).' },
  401: {
    description: 'The API key is missing or invalid.',
    headers: {
      'WWW-Authenticate': {
        description: 'The scheme and realm, with error="invalid_token" when a key was sent.',
        schema: { type: 'string' },
      },
    },
  },
  404: { description: 'The requested resource could not be found.' },
  409: {
    description:
      'The request conflicts with stored data (a value that must be unique already is), or a request with the same Idempotency-Key is still being processed (Retry-After).',
    headers: RETRY_AFTER,
  },
  413: { description: 'The request body is larger than 16 KiB.' },
  415: { description: 'The request body is not application/json.' },
  422: {
    description:
      'The request refers to a resource that does not exist, or reuses an Idempotency-Key with a different request.',
  },
  429: {
    description:
      'Too many requests for this API key (rate_limited, with RateLimit-* headers), or too many requests without a valid key from this client address (too_many_auth_failures).',
    headers: {
      ...RETRY_AFTER,
      'RateLimit-Limit': { description: 'Requests allowed per window.', schema: { type: 'integer' } },
      'RateLimit-Remaining': { description: 'Requests left in the window.', schema: { type: 'integer' } },
      'RateLimit-Reset': { description: 'Seconds until the window resets.', schema: { type: 'integer' } },
    },
  },
  500: { description: 'An unexpected failure; its details are logged, not returned.' },
  503: {
    description:
      'The service cannot serve the request right now (database unavailable, the API keys unreadable for too long, or shutting down).',
    headers: RETRY_AFTER,
  },
};

/** Documents each listed status as an Error response, with its headers. */
export function ApiErrorResponses(...statuses: number[]): MethodDecorator {
  return applyDecorators(
    ...statuses.map((status) => ApiResponse({ status, type: ErrorResponse, ...ERROR_RESPONSES[status] })),
  ) as MethodDecorator;
}
