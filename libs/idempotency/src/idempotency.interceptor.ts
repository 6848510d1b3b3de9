import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { from, lastValueFrom, type Observable } from 'rxjs';
import { IdempotencyStore } from './idempotency-store';
import { AppError, PLATFORM_ERROR_CODES } from '@app/platform';
import { RequestValidationPipe } from '@app/validation';

/** 1 to 255 visible ASCII characters (a repeated header arrives joined with ", ", so it fails too). */
const VALID_KEY = /^[\x21-\x7e]{1,255}$/;

/**
 * `@Idempotent()` routes: a request with an `Idempotency-Key` header goes
 * through the {@link IdempotencyStore}; one without is served as it always was.
 * It runs after authentication (the key is scoped to the caller). Nest would
 * validate the body only inside it, within the transaction; it validates the
 * body first instead, so that an invalid request never takes a write lock, and
 * a 400 is never recorded.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(
    private readonly store: IdempotencyStore,
    private readonly validation: RequestValidationPipe,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const key = request.headers['idempotency-key'];
    if (key === undefined) return next.handle();
    if (typeof key !== 'string' || !VALID_KEY.test(key)) {
      throw new AppError(
        'invalid',
        PLATFORM_ERROR_CODES.invalidParameter,
        'Idempotency-Key must be 1 to 255 visible ASCII characters',
      );
    }
    const scope = {
      principal: request.caller ?? '',
      key,
      fingerprint: IdempotencyStore.fingerprintOf(
        request.method,
        request.routeOptions.url ?? '',
        (request.params ?? {}) as Record<string, string>,
        request.body,
      ),
    };
    const reply = context.switchToHttp().getResponse<FastifyReply>();
    return from(
      this.validation.validateBodyOf(context, request.body).then((body) => {
        // The handler's `@Body()` gets the validated DTO; the validation pipe passes it on untouched.
        request.body = body;
        return this.store.execute(scope, reply, () => lastValueFrom(next.handle()));
      }),
    );
  }
}
