import type { AsyncLocalStorage } from 'node:async_hooks';
import type { QueryRunner } from 'typeorm';
import { TransactionAbandoned, TransactionFence } from './transaction-fence';

/**
 * A transaction that begins at the first statement of the code run in it ({@link within}), not before, and ends when
 * its owner says: what an event's subscriber needs (SqlClient.onDemand()). The code's slow part before its first
 * statement (an outbound look-up) holds nothing: on SQLite not the one write path, on PostgreSQL no connection and no
 * transaction id. Once open, every statement and `transaction()` of the code joins it, and `begin` ran first in it (a
 * subscription's claim). {@link commit} ends it and leaves the next statement to open another; {@link abandon} rolls
 * it back and refuses the code's statements from then on.
 */
export class TransactionOnDemand {
  /** The open transaction's runner (fenced), while one is open or opening. */
  private opened?: Promise<QueryRunner>;
  /** The open transaction's runner, once it is ready: `repository()` takes it synchronously. */
  openRunner?: QueryRunner;
  /** Resolving it lets the open transaction's work end (a commit); rejecting it rolls it back. */
  private release?: PromiseWithResolvers<void>;
  /** The transaction open or ending, settled once it committed or rolled back. */
  private current?: Promise<void>;
  private fence?: TransactionFence;
  /** What `onCommit()` asked for in the open transaction. */
  hooks: Array<() => void> = [];
  /** Statements (and joined transactions) the code sent since {@link mark}. */
  private uses = 0;
  /** Why the code's statements are refused: it was abandoned, or its transaction failed. */
  private refusal?: unknown;
  /** Rejected when an open transaction ends without {@link commit} (its begin refused, its fence closed, a failure). */
  private readonly broken = Promise.withResolvers<never>();
  /** A failure of the transaction that was not the code's: `begin` refused, a commit or the database failed. */
  private transactionFailure?: unknown;

  constructor(
    private readonly transaction: (work: () => Promise<void>) => Promise<void>,
    private readonly currentRunner: () => QueryRunner | undefined,
    private readonly context: AsyncLocalStorage<TransactionOnDemand>,
    private readonly begin: () => Promise<void>,
  ) {
    this.broken.promise.catch(() => undefined);
  }

  /** Runs `code` with its statements sent to this transaction, which its first one opens. */
  within<T>(code: () => Promise<T>): Promise<T> {
    return this.context.run(this, code);
  }

  /** Rejects when the transaction fails without being told to end; never resolves. */
  get interrupted(): Promise<never> {
    return this.broken.promise;
  }

  /**
   * Why the transaction failed, if it failed other than by the code's doing: `begin` refused (the error it threw), a
   * commit failed, or the database did. A transaction the fence closed because the code waited on something else
   * inside it is the code's failure, not this.
   */
  get failure(): unknown {
    return this.transactionFailure;
  }

  get isOpen(): boolean {
    return this.opened !== undefined;
  }

  /** Starts counting the code's statements anew: {@link usedSinceMark} tells whether any came since. */
  mark(): void {
    this.uses = 0;
  }

  get usedSinceMark(): boolean {
    return this.uses > 0;
  }

  /** The open transaction's runner, opening one first if none is (after the one that ends, if one ends). */
  async runner(): Promise<QueryRunner> {
    this.uses++;
    if (this.refusal !== undefined) throw this.refusal;
    while (!this.opened && this.current) await this.current.catch(() => undefined);
    if (this.refusal !== undefined) throw this.refusal;
    this.opened ??= this.open();
    return this.opened;
  }

  private open(): Promise<QueryRunner> {
    const ready = Promise.withResolvers<QueryRunner>();
    const release = Promise.withResolvers<void>();
    // Rejected (abandon()) perhaps before the transaction's work awaits it, while its batch has not begun.
    release.promise.catch(() => undefined);
    this.release = release;
    const current = this.transaction(async () => {
      const runner = this.currentRunner()!;
      // Still this open's (its batch may have begun after a commit() or abandon() ended it).
      if (this.release === release) this.fence = TransactionFence.of(runner);
      await this.begin();
      // Abandoned before it was ready: no statement of the code runs in it.
      if (this.release !== release && this.refusal !== undefined) throw this.refusal;
      if (this.release === release) this.openRunner = runner;
      ready.resolve(runner);
      await release.promise;
    });
    this.current = current;
    const ended = () => {
      if (this.current === current) this.current = undefined;
    };
    current.then(ended, ended);
    current.then(
      () => undefined,
      (error: unknown) => {
        ready.reject(error);
        if (this.release !== release) return; // ended by commit() or abandon(), which answer for it
        // The fence closed it: the code's own failure (it waited on something else inside), not the transaction's.
        if (!(error instanceof TransactionAbandoned)) this.transactionFailure = error;
        this.refusal = error;
        this.closeOpen();
        this.broken.reject(error);
      },
    );
    return ready.promise;
  }

  /**
   * Commits the open transaction, if any, with `last` its last statement (the owner's, as a subscription's progress),
   * then runs what `onCommit()` asked for. The code's next statement waits for the commit, then opens another.
   */
  async commit(last?: { sql: string; parameters: unknown[] }): Promise<void> {
    const { current, opened, release } = this;
    if (!opened || !current || !release) return;
    const hooks = this.hooks;
    this.closeOpen();
    try {
      if (last) await (await opened).query(last.sql, last.parameters);
      release.resolve();
    } catch (error) {
      release.reject(error);
    }
    try {
      await current;
    } catch (error) {
      this.refusal ??= error;
      this.transactionFailure ??= error;
      throw error;
    }
    for (const hook of hooks) hook();
  }

  /** Rolls back the open transaction, if any, and refuses every statement of the code from now on. */
  async abandon(reason: string): Promise<void> {
    this.refusal ??= new TransactionAbandoned(reason);
    const current = this.current;
    if (!this.opened || !current) return;
    // The fence rolls back after a statement in flight has settled; before the transaction's begin ran, the release.
    if (this.fence) this.fence.abandon(reason);
    else this.release!.reject(this.refusal);
    this.closeOpen();
    await current.catch(() => undefined);
  }

  private closeOpen(): void {
    this.opened = undefined;
    this.openRunner = undefined;
    this.release = undefined;
    this.fence = undefined;
    this.hooks = [];
  }
}
