import { DiscoveryService } from '@nestjs/core';
import type { AppError } from '../errors/app-error';

/**
 * How a capability answers failures of its own, which the core cannot recognise (the database: 503
 * `database_unavailable` when down, 409 on a unique constraint): a provider of its module, marked
 * `@FailureTranslator()`. The error filter asks every one before a 500 (found through Nest's `DiscoveryService`).
 */
export interface FailureTranslator {
  /** The answer to a failure it recognises, with a warning line to log (no request data in it), or `undefined`. */
  translate(exception: unknown): { error: AppError; warning?: string } | undefined;
  /** The failure as a log line may show it: without the request's data it carries (SQL parameters, say). */
  loggable(exception: unknown): unknown;
}

/** Marks a provider the error filter asks about failures it does not know (see the interface of the same name). */
export const FailureTranslator = DiscoveryService.createDecorator<void>();

/** Every translator of the application, asked in turn: the error filter's view of them. */
export class FailureTranslations {
  private translators?: readonly FailureTranslator[];

  /** `find` gives the translators once, when a failure first needs them (every module created by then). */
  constructor(private readonly find: () => readonly FailureTranslator[]) {}

  /** The translators Nest's discovery finds among the application's providers. */
  static discovered(discovery: DiscoveryService): FailureTranslations {
    return new FailureTranslations(() =>
      discovery
        .getProviders({ metadataKey: FailureTranslator.KEY })
        .map((wrapper) => wrapper.instance as FailureTranslator),
    );
  }

  translate(exception: unknown): { error: AppError; warning?: string } | undefined {
    for (const translator of this.all()) {
      const translated = translator.translate(exception);
      if (translated) return translated;
    }
    return undefined;
  }

  loggable(exception: unknown): unknown {
    return this.all().reduce((loggable, translator) => translator.loggable(loggable), exception);
  }

  private all(): readonly FailureTranslator[] {
    return (this.translators ??= this.find());
  }
}
