import type { QueryRunner } from 'typeorm';
import { interceptQueries } from './query-interceptor';

/**
 * A transaction rolled back before its work ended: the work waited on something other than its own statements for
 * longer than `DATABASE_TRANSACTION_IDLE_MS` (an outbound call, a promise that never settles), or its owner gave it
 * up (an event handler past its deadline, a service stopping). Nothing of it was kept, and every statement its code
 * sends after is refused with this error. Answered 503 `database_unavailable`, like any "not now" of the database.
 */
export class TransactionAbandoned extends Error {
  constructor(reason: string) {
    super(`the transaction was rolled back: ${reason}`);
    this.name = 'TransactionAbandoned';
  }
}

/**
 * Watches one transaction's work, so that no work can hold a transaction open by waiting on something else. On SQLite a
 * transaction holds the file's one write path (every other write of the process waits behind it); on PostgreSQL it
 * holds a pooled connection, its row locks, and the horizon below which the outbox's events are read. Every statement
 * of the work goes through {@link runner}; while none runs for `idleMs`, the fence closes. {@link abandon} closes it
 * from outside. Once closed, {@link guard} rejects, after the statement in flight (if any) has settled, so that the
 * caller's rollback comes after it on the connection; later statements are refused. PostgreSQL calls the same limit
 * `idle_in_transaction_session_timeout`, which ends the whole session; this ends the transaction alone.
 */
export class TransactionFence {
  readonly runner: QueryRunner;
  private inFlight = 0;
  /** Fires `idleMs` after the last statement settled (re-armed, never made anew: statements are the hot path). */
  private readonly idleTimer: NodeJS.Timeout;
  private closedWith?: TransactionAbandoned;
  /** The work has ended: a statement it sends now would run outside its transaction. */
  private ended = false;
  private readonly closed = Promise.withResolvers<never>();
  private quiet?: PromiseWithResolvers<void>;

  /**
   * @param abandoned told once if the transaction is ended before its work: `idle` (it waited too long on something
   *   else) or `given_up` ({@link abandon}).
   */
  constructor(
    shared: QueryRunner,
    idleMs: number,
    private readonly abandoned?: (reason: 'idle' | 'given_up') => void,
  ) {
    this.closed.promise.catch(() => undefined);
    this.runner = interceptQueries(shared, (args) => this.query(shared, args));
    fences.set(this.runner, this);
    this.idleTimer = setTimeout(() => {
      if (this.inFlight > 0) this.idleTimer.refresh();
      else
        this.close(
          `it waited ${idleMs} ms on something other than its statements (DATABASE_TRANSACTION_IDLE_MS)`,
          'idle',
        );
    }, idleMs);
  }

  /** The fence of a transaction's runner, as the work sees it (`SqlClient`'s current runner). */
  static of(runner: QueryRunner | undefined): TransactionFence | undefined {
    return runner && fences.get(runner);
  }

  /**
   * `work`'s outcome, once the statements it sent have settled, or the fence's closing, whichever comes first; the
   * fence is closed after either.
   */
  async guard<T>(work: Promise<T>): Promise<T> {
    try {
      const result = await Promise.race([work, this.closed.promise]);
      // A statement the work sent and did not wait for: the commit comes after it, or it would run outside.
      await Promise.race([this.settled(), this.closed.promise]);
      return result;
    } catch (error) {
      // The same for the rollback: no statement starts now, and those in flight settle first.
      this.ended = true;
      await this.settled();
      throw error;
    } finally {
      // Statements the work sends once its transaction ended would run outside it: refused (the error made then, not
      // for every transaction).
      this.ended = true;
      clearTimeout(this.idleTimer);
    }
  }

  /** Ends the transaction: the work's outcome no longer counts, its statements are refused from now on. */
  abandon(reason: string): void {
    this.close(reason, 'given_up');
  }

  private close(reason: string, why: 'idle' | 'given_up'): void {
    if (this.closedWith || this.ended) return;
    this.abandoned?.(why);
    this.closedWith = new TransactionAbandoned(reason);
    clearTimeout(this.idleTimer);
    const closing = this.closedWith;
    void this.settled().then(() => this.closed.reject(closing));
  }

  private async query(shared: QueryRunner, args: Parameters<QueryRunner['query']>): Promise<unknown> {
    if (this.closedWith) throw this.closedWith;
    if (this.ended) throw new TransactionAbandoned('its work had ended');
    this.inFlight++;
    try {
      return await shared.query(...args);
    } finally {
      if (--this.inFlight === 0) {
        this.quiet?.resolve();
        this.quiet = undefined;
        if (!this.closedWith) this.idleTimer.refresh();
      }
    }
  }

  /** Resolves once no statement of the work runs. */
  private settled(): Promise<void> {
    if (this.inFlight === 0) return Promise.resolve();
    this.quiet ??= Promise.withResolvers<void>();
    return this.quiet.promise;
  }
}

const fences = new WeakMap<QueryRunner, TransactionFence>();
