import type { LoggerService } from '@nestjs/common';
import pino, { type Logger } from 'pino';
import type { AppConfig, LogLevel } from '../config/app-config';
import { ConfigError } from '../config/config.error';

/** Nest's token for the application's pino logger ({@link appLoggerOf}). */
export const APP_LOGGER = Symbol('APP_LOGGER');

/**
 * Bytes of log lines that may wait for stdout's reader. Past them a line is dropped and counted: a reader that stalls
 * (a full pipe, a log shipper that hangs) must not grow the process without bound, nor block it.
 */
export const LOG_BUFFER_BYTES = 1 << 20;

/** How long after the first dropped line the summary of those dropped is written (if the reader has caught up). */
const DROP_SUMMARY_MS = 10_000;

/** One per level: the process has one stdout, whichever application (or read of the configuration) asks. */
const loggers = new Map<LogLevel, Logger>();
const droppedLines = new WeakMap<Logger, { count: number }>();

/**
 * The one pino logger of an application: JSON lines on stdout at `LOG_LEVEL`, for Nest's own lines (from the first, so
 * a failed startup logs JSON too) and the request lines; written asynchronously, at most LOG_BUFFER_BYTES waiting.
 */
export function appLoggerOf(config: Pick<AppConfig, 'logLevel'>): Logger {
  let logger = loggers.get(config.logLevel);
  if (!logger) {
    const stdout = pino.destination({ dest: 1, sync: false, minLength: 0, maxLength: LOG_BUFFER_BYTES });
    const created = pino({ level: config.logLevel }, stdout);
    const dropped = { count: 0 };
    let summary: NodeJS.Timeout | undefined;
    let summarised = 0;
    stdout.on('drop', () => {
      dropped.count++;
      summary ??= setTimeout(() => {
        summary = undefined;
        created.warn(
          { context: 'Logging', dropped: dropped.count - summarised },
          `${dropped.count - summarised} log lines dropped: stdout was not read fast enough (counted in /metrics)`,
        );
        summarised = dropped.count;
      }, DROP_SUMMARY_MS).unref();
    });
    droppedLines.set(created, dropped);
    loggers.set(config.logLevel, (logger = created));
  }
  return logger;
}

/** How many lines `logger` has dropped so far, its reader not keeping up. */
export function droppedLinesOf(logger: Logger): number {
  return droppedLines.get(logger)?.count ?? 0;
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
