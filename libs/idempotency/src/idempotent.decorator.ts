import { UseInterceptors, applyDecorators } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import { IdempotencyInterceptor } from './idempotency.interceptor';

/**
 * Makes a create safe to retry: the client may send `Idempotency-Key`, and a
 * retry with the same key gets the first answer again instead of creating
 * twice (see IdempotencyStore). Declares the header in the OpenAPI document;
 * list the 409 and 422 it may answer with the route's other errors
 * (`@ApiErrorResponses(..., new IdempotencyKeyInUseError(), new IdempotencyKeyReusedError())`
 * shows them as those statuses' examples), and document `Idempotent-Replayed`
 * on the success response with IDEMPOTENT_REPLAYED_HEADER.
 */
export const Idempotent = (): MethodDecorator =>
  applyDecorators(
    UseInterceptors(IdempotencyInterceptor),
    ApiHeader({
      name: 'Idempotency-Key',
      required: false,
      description:
        'Makes the request safe to retry: a retry with the same key and the same body gets the first answer again, with `Idempotent-Replayed: true`, and changes nothing. Scoped to the API key; kept for IDEMPOTENCY_TTL_HOURS.',
      schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7E]+$' },
    }),
  );

/** The success response's `Idempotent-Replayed` header, for `@Responds(..., { headers })`. */
export const IDEMPOTENT_REPLAYED_HEADER = {
  'Idempotent-Replayed': {
    description: '`true` when this is the recorded answer to an earlier request with the same Idempotency-Key.',
    schema: { type: 'string', enum: ['true'] },
  },
};
