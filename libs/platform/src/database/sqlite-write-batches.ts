import type { DataSource, QueryRunner } from 'typeorm';

/** A write waiting for its turn: one statement, or a transaction's work. */
type Job =
  | { statement: { sql: string; parameters: unknown[] }; settle: Settle }
  | { work: (runner: QueryRunner) => Promise<unknown>; settle: Settle };

type Settle = (outcome: PromiseSettledResult<unknown>) => void;

/** Most jobs in one batch: bounds what a failed transaction makes run again. */
const MAX_BATCH = 100;

/**
 * The one ordered path of every write to a SQLite file (single statements and
 * transactions alike), on one connection: group commit.
 *
 * SQLite lets one connection write at a time. With single writes and
 * transactions on connections of their own they fought for the write lock
 * through the busy timeout, and a mix of keyed and plain creates collapsed to
 * a few a second. Here the writes that arrive while a batch runs wait for the
 * next batch, and each batch is one `BEGIN IMMEDIATE ... COMMIT`: its
 * statements and transactions' work run side by side on the connection
 * (node-sqlite3 pipelines them), and one fsync makes all of them durable. No
 * job is answered before its batch has committed.
 *
 * A single statement that fails inside a batch undoes only itself (SQLite
 * rolls back the statement, not the transaction). A transaction's work that
 * fails may have written half of what it meant to: the batch is then rolled
 * back and every job of it runs again alone, in order, so that each
 * transaction still commits or rolls back by itself.
 */
export class SqliteWriteBatches {
  private waiting: Job[] = [];
  private running?: Promise<void>;
  private unanswered = 0;

  /**
   * @param connection the writing connection (opened on first use, and again after it failed to open).
   * @param inTransaction runs a transaction's work with `runner` as the current connection of its code.
   */
  constructor(
    private readonly connection: () => Promise<DataSource>,
    private readonly inTransaction: <T>(runner: QueryRunner, work: () => Promise<T>) => Promise<T>,
  ) {}

  write(sql: string, parameters: unknown[]): Promise<unknown> {
    return this.enqueue((settle) => ({ statement: { sql, parameters }, settle }));
  }

  transaction<T>(work: () => Promise<T>): Promise<T> {
    return this.enqueue((settle) => ({ work: (runner) => this.inTransaction(runner, work), settle })) as Promise<T>;
  }

  /** Writes queued or running, not answered yet (a lock held by another process shows here). */
  get pending(): number {
    return this.unanswered;
  }

  /** Resolves once every write queued so far has been answered. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private enqueue(job: (settle: Settle) => Job): Promise<unknown> {
    this.unanswered++;
    return new Promise((resolve, reject) => {
      this.waiting.push(
        // Each job is settled exactly once: by its batch, or by the run that failed before settling it.
        job((outcome) => {
          this.unanswered--;
          if (outcome.status === 'fulfilled') resolve(outcome.value);
          else reject(outcome.reason);
        }),
      );
      this.running ??= this.drain();
    });
  }

  private async drain(): Promise<void> {
    // Let the writes of this turn of the event loop join the first batch.
    await Promise.resolve();
    while (this.waiting.length > 0) {
      const batch = this.waiting.splice(0, MAX_BATCH);
      await this.run(batch).catch((error: unknown) => settleAll(batch, { status: 'rejected', reason: error }));
    }
    this.running = undefined;
  }

  private async run(batch: Job[]): Promise<void> {
    const runner = (await this.connection()).createQueryRunner();
    // A lone statement commits by itself: no transaction around it.
    if (batch.length === 1 && 'statement' in batch[0]) {
      const { sql, parameters } = batch[0].statement;
      return settleAll(batch, await settled(runner.query(sql, parameters)));
    }
    // IMMEDIATE: take the write lock at the start, not on the first write, so the batch cannot fail half-way on it.
    await runner.query('BEGIN IMMEDIATE');
    markTransaction(runner, true);
    const outcomes = await Promise.all(
      batch.map((job) =>
        settled('statement' in job ? runner.query(job.statement.sql, job.statement.parameters) : job.work(runner)),
      ),
    );
    const failedTransaction = batch.some((job, index) => 'work' in job && outcomes[index].status === 'rejected');
    markTransaction(runner, false);
    if (failedTransaction) {
      await runner.query('ROLLBACK');
      if (batch.length === 1) return settleAll(batch, outcomes[0]);
      for (const job of batch) await this.run([job]).catch((error: unknown) => settleAll([job], rejected(error)));
      return;
    }
    const commit = await settled(runner.query('COMMIT'));
    if (commit.status === 'rejected') {
      await runner.query('ROLLBACK').catch(() => undefined);
      // The statement that made the commit fail (a full disk, say) says more than the commit's own error.
      const cause = outcomes.find((outcome) => outcome.status === 'rejected') ?? commit;
      return settleAll(batch, cause);
    }
    batch.forEach((job, index) => job.settle(outcomes[index]));
  }
}

/**
 * Tells TypeORM whether the runner is in a transaction begun here, so that its
 * own calls in a transaction's work (a repository's save()) do not begin one of
 * their own, which SQLite would refuse inside the batch's.
 */
function markTransaction(runner: QueryRunner, active: boolean): void {
  (runner as { isTransactionActive: boolean }).isTransactionActive = active;
}

function settled<T>(promise: Promise<T>): Promise<PromiseSettledResult<T>> {
  return promise.then(
    (value) => ({ status: 'fulfilled', value }),
    (reason: unknown) => rejected(reason),
  );
}

function rejected(reason: unknown): PromiseRejectedResult {
  return { status: 'rejected', reason };
}

function settleAll(batch: Job[], outcome: PromiseSettledResult<unknown>): void {
  for (const job of batch) job.settle(outcome);
}
