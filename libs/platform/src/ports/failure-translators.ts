import { Injectable } from '@nestjs/common';
import type { AppError } from '../errors/app-error';

/**
 * How a capability answers failures of its own, which the core cannot recognise (the database: 503
 * `database_unavailable` when down, 409 on a unique constraint). The error filter asks every translator before a 500.
 */
export interface FailureTranslator {
  /** The answer to a failure it recognises, with a warning line to log (no request data in it), or `undefined`. */
  translate(exception: unknown): { error: AppError; warning?: string } | undefined;
  /** The failure as a log line may show it: without the request's data it carries (SQL parameters, say). */
  loggable(exception: unknown): unknown;
}

/** The translators the capability libraries registered (in their modules' constructors). */
@Injectable()
export class FailureTranslators {
  private readonly translators: FailureTranslator[] = [];

  add(translator: FailureTranslator): void {
    this.translators.push(translator);
  }

  translate(exception: unknown): { error: AppError; warning?: string } | undefined {
    for (const translator of this.translators) {
      const translated = translator.translate(exception);
      if (translated) return translated;
    }
    return undefined;
  }

  loggable(exception: unknown): unknown {
    return this.translators.reduce((loggable, translator) => translator.loggable(loggable), exception);
  }
}
