import type { Logger } from 'pino';

/** Lines about refused requests (4xx answers) a window may hold; the rest are counted instead. */
export const REFUSAL_LINES_PER_WINDOW = 1_000;
export const REFUSAL_WINDOW_MS = 10_000;

const logs = new WeakMap<Logger, RefusalLog>();

/**
 * What a client can make the service write: one line per request it sends. Its refused requests (4xx: a wrong key, a
 * flood of them, malformed ones) are written up to REFUSAL_LINES_PER_WINDOW per REFUSAL_WINDOW_MS, and the rest summed
 * up in one warning line at the end of the window, by status; answers it was served (2xx, 3xx) and failures (5xx) are
 * always written. So a client without a key cannot fill a disk or a log pipeline, and an operator still sees how many
 * were refused.
 */
export class RefusalLog {
  private windowEnds = 0;
  private written = 0;
  private readonly left = new Map<number | string, number>();
  private flush?: NodeJS.Timeout;

  private constructor(private readonly logger: Logger) {}

  /** The one of `logger`'s application (the request lines and the answers given below Fastify share it). */
  static of(logger: Logger): RefusalLog {
    let log = logs.get(logger);
    if (!log) {
      log = new RefusalLog(logger);
      logs.set(logger, log);
    }
    return log;
  }

  /**
   * Whether the line about an answer with `status` (or a refusal given no answer, named) may be written; counted for
   * the summary when not.
   */
  admits(status: number | string): boolean {
    if (typeof status === 'number' && (status < 400 || status >= 500)) return true;
    const now = Date.now();
    if (now >= this.windowEnds) this.open(now);
    if (this.written < REFUSAL_LINES_PER_WINDOW) {
      this.written++;
      return true;
    }
    this.left.set(status, (this.left.get(status) ?? 0) + 1);
    this.flush ??= setTimeout(() => this.summarise(), this.windowEnds - now).unref();
    return false;
  }

  private open(now: number): void {
    this.summarise();
    this.windowEnds = now + REFUSAL_WINDOW_MS;
    this.written = 0;
  }

  /** The summary of the window's lines left out, if any. */
  private summarise(): void {
    clearTimeout(this.flush);
    this.flush = undefined;
    if (this.left.size === 0) return;
    const byStatus = Object.fromEntries([...this.left].map(([status, count]) => [String(status), count]));
    const total = [...this.left.values()].reduce((sum, count) => sum + count, 0);
    this.left.clear();
    this.logger.warn(
      { context: 'RequestLog', leftOut: byStatus },
      `${total} lines about refused requests left out: more than ${REFUSAL_LINES_PER_WINDOW} in ${REFUSAL_WINDOW_MS / 1000} s`,
    );
  }
}
