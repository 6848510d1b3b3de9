import { registerAs } from '@nestjs/config';
import { Settings } from '@app/platform';

/** Idempotency's own variable: `IDEMPOTENCY_TTL_HOURS`. */
export class IdempotencySettings {
  private constructor(
    /** How long the answer to a request with an Idempotency-Key is kept for its retries. */
    readonly ttlHours: number,
  ) {}

  /** Reads and checks it; throws a ConfigError naming the variable. */
  static of(settings: Settings): IdempotencySettings {
    return new IdempotencySettings(settings.integer('IDEMPOTENCY_TTL_HOURS', 24, 1, 8_760));
  }
}

/** These settings as Nest's configuration names them (`idempotency`): read from the environment when the application starts. */
export const idempotencyConfig = registerAs('idempotency', (): IdempotencySettings =>
  IdempotencySettings.of(new Settings(process.env)),
);
