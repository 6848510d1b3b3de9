import type { Database } from 'sqlite3';
import type { DataSource, QueryRunner } from 'typeorm';
import { isDatabaseUnavailable } from './driver-errors';
import { writeResultOf, type WriteResult } from './write-result';

/** A write waiting for its turn: one statement, or a transaction's work. */
type Job =
  { statement: Statement; settle: Settle } | { work: (runner: QueryRunner) => Promise<unknown>; settle: Settle };

type Statement = { sql: string; parameters: unknown[] };

type Settle = (outcome: PromiseSettledResult<unknown>) => void;

/** Most jobs in one batch: bounds how long a job waits behind the others of its batch. */
export const MAX_BATCH = 100;

/**
 * The one ordered path of every write to a SQLite file (single statements and
 * transactions alike), on one connection: group commit.
 *
 * SQLite lets one connection write at a time. With single writes and
 * transactions on connections of their own they fought for the write lock
 * through the busy timeout, and a mix of keyed and plain creates collapsed to
 * a few a second. Here the writes that arrive while a batch runs wait for the
 * next batch, and each batch is one `BEGIN IMMEDIATE ... COMMIT` whose one
 * fsync makes all of it durable. No job is answered before its batch has
 * committed.
 *
 * Inside a batch, the single statements are sent together and run side by
 * side (each is atomic by itself: SQLite undoes a failed one alone), then the
 * transactions run one after another, so that they are serializable: each
 * sees the writes before it and nothing of those after it. A transaction runs
 * inside a savepoint of its own: if its work fails, the savepoint is rolled
 * back and the others go on. No job's work runs twice. An error that may have
 * made SQLite roll back the whole transaction (a full disk, an I/O error)
 * ends the batch: every job of it fails with that error. Had SQLite rolled
 * back by itself, a single statement that ran after the error, beside the
 * failed one, committed on its own although it is answered 503: an unknown
 * outcome, as a connection lost during a commit gives. A full disk shows at
 * the COMMIT instead, where nothing is kept: a batch's pages stay in SQLite's
 * cache until then (2 MB, far more than a batch of 100 writes changes), and
 * its statement journal in memory (`temp_store = MEMORY`).
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

  write(sql: string, parameters: unknown[]): Promise<WriteResult> {
    return this.enqueue((settle) => ({ statement: { sql, parameters }, settle })) as Promise<WriteResult>;
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
      await this.run(batch).catch((error: unknown) => settleAll(batch, rejected(error)));
    }
    this.running = undefined;
  }

  private async run(batch: Job[]): Promise<void> {
    const runner = (await this.connection()).createQueryRunner();
    // A lone statement commits by itself: no transaction around it.
    if (batch.length === 1 && 'statement' in batch[0]) {
      return settleAll(batch, await settled(statementOf(runner, batch[0])));
    }
    // IMMEDIATE: take the write lock at the start, not on the first write, so the batch cannot fail half-way on it.
    await runner.query('BEGIN IMMEDIATE');
    markTransaction(runner, true);
    let outcomes: PromiseSettledResult<unknown>[];
    try {
      outcomes = await runBatch(runner, batch);
    } catch (error) {
      markTransaction(runner, false);
      await runner.query('ROLLBACK').catch(() => undefined);
      return settleAll(batch, rejected(error));
    }
    markTransaction(runner, false);
    const commit = await settled(runner.query('COMMIT'));
    if (commit.status === 'rejected') {
      await runner.query('ROLLBACK').catch(() => undefined);
      return settleAll(batch, commit);
    }
    batch.forEach((job, index) => job.settle(outcomes[index]));
  }
}

/**
 * A batch's jobs: its single statements first, sent together, then its
 * transactions one after another, each inside a savepoint. Their outcomes in
 * the batch's order, or a throw when the batch as a whole can no longer
 * commit.
 *
 * The jobs of a batch all came while the one before ran, so any order of them
 * is one a client could have seen. A single statement is atomic by itself
 * (SQLite undoes a failed one alone), so the statements may run side by side:
 * SQLite's mutex takes them one at a time, straight from libuv's pool without
 * waiting for the event loop between them, and the transactions, which must
 * see nothing of each other half done, then run alone.
 */
async function runBatch(runner: QueryRunner, batch: Job[]): Promise<PromiseSettledResult<unknown>[]> {
  const outcomes: PromiseSettledResult<unknown>[] = [];
  const statements: Array<Promise<void>> = [];
  batch.forEach((job, index) => {
    if ('statement' in job) statements.push(settled(statementOf(runner, job)).then((o) => void (outcomes[index] = o)));
  });
  await Promise.all(statements);
  // SQLite may have rolled back the whole transaction itself (decision 0021): the batch cannot commit.
  throwIfUnavailable(outcomes);
  for (const [index, job] of batch.entries()) {
    if ('statement' in job) continue;
    outcomes[index] = await inSavepoint(runner, job.work);
    throwIfUnavailable([outcomes[index]]);
  }
  return outcomes;
}

function throwIfUnavailable(outcomes: Array<PromiseSettledResult<unknown> | undefined>): void {
  for (const outcome of outcomes) {
    if (outcome?.status === 'rejected' && isDatabaseUnavailable(outcome.reason)) throw outcome.reason;
  }
}

async function statementOf(runner: QueryRunner, job: { statement: Statement }): Promise<WriteResult> {
  return writeResultOf(await runner.query(job.statement.sql, job.statement.parameters, true));
}

/**
 * A transaction's work, undone alone if it fails. The savepoint is never
 * released: `ROLLBACK TO` rolls back to the newest savepoint of its name, and
 * the batch's COMMIT releases them all, so one statement per job is saved.
 */
async function inSavepoint(
  runner: QueryRunner,
  work: (runner: QueryRunner) => Promise<unknown>,
): Promise<PromiseSettledResult<unknown>> {
  await control(runner, 'SAVEPOINT job');
  const outcome = await settled(work(runner));
  if (outcome.status === 'rejected' && !isDatabaseUnavailable(outcome.reason)) {
    await control(runner, 'ROLLBACK TO job');
  }
  return outcome;
}

/**
 * A statement that only steers the transaction, straight to the driver: one
 * trip through libuv's pool (`exec`), where TypeORM's query() prepares, runs
 * and finalizes it in two, and adds its own steps.
 */
async function control(runner: QueryRunner, sql: string): Promise<void> {
  const connection = (await runner.connect()) as Database;
  await new Promise<void>((resolve, reject) => connection.exec(sql, (error) => (error ? reject(error) : resolve())));
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
