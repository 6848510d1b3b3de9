import type { LoggerService } from '@nestjs/common';
import pino, { type Logger } from 'pino';
import type { AppConfig } from '../config/app-config';
import { ConfigError } from '../config/config.error';

/** Nest's token for the application's pino logger ({@link appLoggerOf}). */
export const APP_LOGGER = Symbol('APP_LOGGER');

const loggers = new WeakMap<AppConfig, Logger>();

/**
 * The one pino logger of an application: JSON lines on stdout at `LOG_LEVEL`, for Nest's own lines (from the first, so
 * a failed startup logs JSON too) and the request lines.
 */
export function appLoggerOf(config: AppConfig): Logger {
  let logger = loggers.get(config);
  if (!logger) {
    logger = pino({ level: config.logLevel });
    loggers.set(config, logger);
  }
  return logger;
}

/**
 * A process's last line when it cannot start, in JSON whatever `LOG_LEVEL` says; a bad variable named without a stack.
 */
export function logStartupFailure(error: unknown): void {
  const logger = pino();
  if (error instanceof ConfigError) {
    logger.fatal({ context: 'Bootstrap', variable: error.variable }, `Invalid configuration: ${error.message}`);
  } else {
    logger.fatal({ context: 'Bootstrap', err: error }, 'failed to start');
  }
}

/** Nest's own log lines (startup, shutdown, errors) through the same pino logger, with Nest's context as a field. */
export class NestPinoLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, context?: string) {
    this.write('info', message, context);
  }
  error(message: unknown, ...rest: unknown[]) {
    // Nest calls error(message, stack?, context?), its Logger always appending the context.
    const context = typeof rest.at(-1) === 'string' && rest.length > 0 ? (rest.at(-1) as string) : undefined;
    const stack = rest.length > 1 && typeof rest[0] === 'string' ? rest[0] : undefined;
    this.write('error', message, context, stack);
  }
  warn(message: unknown, context?: string) {
    this.write('warn', message, context);
  }
  debug(message: unknown, context?: string) {
    this.write('debug', message, context);
  }
  verbose(message: unknown, context?: string) {
    this.write('trace', message, context);
  }
  fatal(message: unknown, context?: string) {
    this.write('fatal', message, context);
  }

  private write(level: pino.Level, message: unknown, context?: string, stack?: string) {
    if (!this.logger.isLevelEnabled(level)) return;
    if (typeof message === 'object' && message !== null && !(message instanceof Error)) {
      // Structured fields, with the human message in `msg` when the caller gave one.
      const { msg, ...fields } = message as { msg?: string };
      this.logger[level]({ context, ...fields, ...(stack ? { stack } : {}) }, msg);
    } else if (message instanceof Error) {
      this.logger[level]({ context, err: message }, message.message);
    } else {
      this.logger[level]({ context, ...(stack ? { stack } : {}) }, String(message));
    }
  }
}
