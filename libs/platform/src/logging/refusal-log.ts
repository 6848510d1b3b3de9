import type { Logger } from 'pino';

/** Lines about refused requests (4xx answers) a window may hold; the rest are counted instead. */
export const REFUSAL_LINES_PER_WINDOW = 1_000;
export const REFUSAL_WINDOW_MS = 10_000;

const logs = new WeakMap<Logger, RefusalLog>();

/**
 * Lines about refused requests (4xx) are written up to REFUSAL_LINES_PER_WINDOW per REFUSAL_WINDOW_MS, the rest summed
 * up by status in one warning line at the window's end: a client without a key cannot fill a disk, and an operator
 * still sees how many were refused. Served answers and failures (5xx) are always written.
 */
export class RefusalLog {
  private windowEnds = 0;
  private written = 0;
  private readonly left = new Map<number | string, number>();
  private flush?: NodeJS.Timeout;

  private constructor(private readonly logger: Logger) {}

  /** The one of `logger`'s application: the request lines and the edge's answers share it. */
  static of(logger: Logger): RefusalLog {
    let log = logs.get(logger);
    if (!log) {
      log = new RefusalLog(logger);
      logs.set(logger, log);
    }
    return log;
  }

  /**
   * Whether the line about an answer with `status` (or a named refusal) may be written; counted for the summary if not.
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
