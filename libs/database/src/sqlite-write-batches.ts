import type { Database } from 'sqlite3';
import type { DataSource, QueryRunner } from 'typeorm';
import {
  BatchUndone,
  UnconfirmedWrite,
  WriteWaitedTooLong,
  isDatabaseUnavailable,
  isOutcomeUnknown,
} from './driver-errors';
import { interceptQueries } from './query-interceptor';
import { TransactionAbandoned } from './transaction-fence';
import { writeResultOf, type WriteResult } from './write-result';

/** A write waiting for its turn: one statement, a unit of work's writes, or a transaction's work. */
type Write =
  | { statement: Statement; settle: Settle }
  | { unit: (runner: QueryRunner) => Promise<Trailing | undefined>; savepoint: boolean; settle: Settle }
  | { work: (runner: QueryRunner) => Promise<unknown>; settle: Settle };

/**
 * Rows a unit of work writes after its own (its events), given as one JSON array of rows to `sql` (`$1`): the rows of
 * every unit of a batch with the same `sql` are one statement.
 */
export interface Trailing {
  readonly sql: string;
  /** Made once the unit's writes ran (a new row's id is known then). */
  readonly rows: () => unknown[][];
}
type Job = Write & {
  /** When it stops waiting for its batch (`performance.now()`), answered 503 if it has not begun by then. */
  expiresAt: number;
};

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
 * next batch, and each batch is one transaction whose one fsync at its
 * commit makes all of it durable. No job is answered before its batch has
 * committed. A unit of work's commit is one job: its rows and its events,
 * written together (OutboxUnitOfWork).
 *
 * Inside a batch, the single statements are sent together and run side by
 * side (each is atomic by itself: SQLite undoes a failed one alone), then the
 * units of work one after another (several writes of one under a savepoint),
 * then the rows the units made after their writes (their events), one
 * statement for them all, then the transactions one after another, so that
 * they are serializable: each sees the writes before it and nothing of those
 * after it. A transaction runs inside a savepoint of its own: if its work
 * fails, the savepoint is rolled back and the others go on. If the units'
 * rows cannot be written, the batch is undone and every job answered so (503,
 * to be sent again). No job's work runs twice.
 *
 * An error that may have made SQLite roll back the whole transaction by
 * itself (a full disk met as a large write spills the page cache, an I/O
 * error) ends the batch: nothing more runs on its connection (RollbackGuard),
 * and each job is answered as what happened to it (answersAfter): rolled back,
 * a failure; a single statement that ran beside the failed one after SQLite's
 * own rollback committed on its own, and is answered as a write that may have
 * been applied (503 `commit_unconfirmed`). A commit that fails on a full disk
 * keeps nothing; one that fails with an I/O error may have been written.
 * test/storage-faults.e2e-spec.ts fills a tmpfs both ways: at a commit, and
 * under a batch SQLite rolls back by itself. Decision 0021.
 */
export class SqliteWriteBatches {
  private waiting: Job[] = [];
  private running?: Promise<void>;
  private unanswered = 0;
  /** Armed while a job waits: fires when the oldest one's wait runs out (expire()). */
  private expiry?: NodeJS.Timeout;

  /**
   * @param connection the writing connection (opened on first use, and again after it failed to open).
   * @param inTransaction runs a transaction's work with `runner` as the current connection of its code.
   * @param waitMs how long a write may wait for its batch to begin (DATABASE_TIMEOUT_MS): then it is answered
   *   {@link WriteWaitedTooLong} (503) and never runs, so that no request waits without end behind a batch that does
   *   not end.
   */
  constructor(
    private readonly connection: () => Promise<DataSource>,
    private readonly inTransaction: <T>(runner: QueryRunner, work: () => Promise<T>) => Promise<T>,
    private readonly waitMs: number,
  ) {}

  write(sql: string, parameters: unknown[]): Promise<WriteResult> {
    return this.enqueue((settle) => ({ statement: { sql, parameters }, settle })) as Promise<WriteResult>;
  }

  transaction<T>(work: () => Promise<T>): Promise<T> {
    return this.enqueue((settle) => ({ work: (runner) => this.inTransaction(runner, work), settle })) as Promise<T>;
  }

  /**
   * A unit of work's writes (`run`, the platform's own statements: no fence), then the rows it makes (its events),
   * which the batch writes with every other unit's in one statement: all of them commit, or none. `savepoint`: the
   * unit has more than one write, undone together if one fails (a single write is undone alone by SQLite).
   */
  unit(run: (runner: QueryRunner) => Promise<Trailing | undefined>, savepoint: boolean): Promise<Trailing | undefined> {
    return this.enqueue((settle) => ({ unit: run, savepoint, settle })) as Promise<Trailing | undefined>;
  }

  /** Writes queued or running, not answered yet (a lock held by another process shows here). */
  get pending(): number {
    return this.unanswered;
  }

  /** Resolves once every write queued so far has been answered. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  private enqueue(job: (settle: Settle) => Write): Promise<unknown> {
    this.unanswered++;
    return new Promise((resolve, reject) => {
      const made = job((outcome) => {
        this.unanswered--;
        if (outcome.status === 'fulfilled') resolve(outcome.value);
        else reject(outcome.reason);
      }) as Job;
      made.expiresAt = performance.now() + this.waitMs;
      // Each job is settled exactly once: by its batch, by the run that failed before settling it, or by expire().
      this.waiting.push(made);
      this.expiry ??= setTimeout(() => this.expire(), this.waitMs).unref();
      this.running ??= this.drain();
    });
  }

  /**
   * Answers the jobs that waited past their time without their batch beginning (a batch held by a transaction that
   * does not end, a lock another process holds): they never run. The queue is in the order the jobs came, so the
   * expired ones are at its head.
   */
  private expire(): void {
    this.expiry = undefined;
    const now = performance.now();
    let expired = 0;
    while (expired < this.waiting.length && this.waiting[expired].expiresAt <= now) expired++;
    const refusal = rejected(new WriteWaitedTooLong(this.waitMs));
    for (const job of this.waiting.splice(0, expired)) job.settle(refusal);
    const next = this.waiting[0];
    if (next) this.expiry = setTimeout(() => this.expire(), Math.max(1, next.expiresAt - now)).unref();
  }

  private async drain(): Promise<void> {
    // Let the writes of this turn of the event loop join the first batch.
    await Promise.resolve();
    while (this.waiting.length > 0) {
      const batch = this.waiting.splice(0, MAX_BATCH);
      await this.run(batch).catch((error: unknown) => settleAll(batch, rejected(error)));
    }
    this.running = undefined;
    clearTimeout(this.expiry);
    this.expiry = undefined;
  }

  private async run(batch: Job[]): Promise<void> {
    const runner = (await this.connection()).createQueryRunner();
    // A lone statement commits by itself: no transaction around it.
    if (batch.length === 1 && 'statement' in batch[0]) {
      const outcome = await settled(statementOf(runner, batch[0]));
      return settleAll(batch, outcome.status === 'rejected' ? rejected(unconfirmedIfUnknown(outcome.reason)) : outcome);
    }
    // TypeORM's runner begins, commits and rolls back the batch's transaction, so that its own calls in a job (a
    // repository's save()) join it. The writing driver begins it IMMEDIATE (guarded-sqlite3.ts): it takes the write
    // lock at the start, not on the first write, so the batch cannot fail half-way on it.
    await runner.startTransaction();
    const guard = new RollbackGuard(runner);
    try {
      const { outcomes, undo } = await runBatch(batch, guard);
      const failure = guard.failure;
      if (failure) return settleEach(batch, await this.answersAfter(runner, failure, outcomes));
      if (undo) {
        // A unit's rows could not be written after its writes: nothing of the batch is kept, each job may be sent again.
        await this.rollback(runner);
        return settleEach(
          batch,
          outcomes.map((outcome) => (outcome.status === 'fulfilled' ? rejected(new BatchUndone()) : outcome)),
        );
      }
      const commit = await settled(runner.commitTransaction());
      if (commit.status === 'fulfilled') return settleEach(batch, outcomes);
      await this.rollback(runner);
      // Each job that succeeded is answered with the commit's failure; one that failed by itself, with its own error.
      const failed = rejected(unconfirmedIfUnknown(commit.reason));
      settleEach(
        batch,
        outcomes.map((outcome) => (outcome.status === 'fulfilled' ? failed : outcome)),
      );
    } catch (error) {
      await this.rollback(runner);
      settleAll(batch, rejected(error));
    }
  }

  /**
   * Rolls the batch back; true if there was nothing to roll back: SQLite had ended the transaction by itself (rolled
   * back on a full disk, or committed where the file guard then failed the COMMIT's answer). TypeORM's runner still
   * counts it open then, and is told of its end the way it knows: a transaction begun straight on the driver, which
   * its rollbackTransaction() ends, so that the next batch's startTransaction() begins one anew.
   */
  private async rollback(runner: QueryRunner): Promise<boolean> {
    try {
      await runner.rollbackTransaction();
      return false;
    } catch (error) {
      const ended = /no transaction is active/.test(String((error as Error)?.message));
      if (ended)
        await control(runner, 'BEGIN')
          .then(() => runner.rollbackTransaction())
          .catch(() => undefined);
      return ended;
    }
  }

  /**
   * What each job of a batch that met an error that may have made SQLite roll back the whole transaction is answered.
   * The transaction is rolled back now, if SQLite has not done it: then nothing of the batch was kept, and each job is
   * answered with its own failure, or the batch's. If SQLite had rolled it back by itself while the single statements
   * ran side by side, those that ran after the rollback committed on their own, and which ran after it cannot be told:
   * each that succeeded is answered as a write that may have been applied (`UnconfirmedWrite`, 503
   * `commit_unconfirmed`). The transactions (units of work among them) run after the statements, and nothing runs
   * after the error, so none of them is in doubt.
   */
  private async answersAfter(
    runner: QueryRunner,
    failure: { error: unknown; duringStatements: boolean },
    outcomes: PromiseSettledResult<unknown>[],
  ): Promise<PromiseSettledResult<unknown>[]> {
    const rolledBackBySqlite = await this.rollback(runner);
    const answer = rejected(
      rolledBackBySqlite && failure.duringStatements ? new UnconfirmedWrite(failure.error) : failure.error,
    );
    return outcomes.map((outcome) => (outcome.status === 'rejected' ? outcome : answer));
  }
}

/**
 * A batch's jobs: its single statements first, sent together, then its
 * transactions one after another, each inside a savepoint. Their outcomes in
 * the batch's order; a transaction that did not run, after an error that may
 * have made SQLite roll back the whole transaction, is answered with that error.
 *
 * The jobs of a batch all came while the one before ran, so any order of them
 * is one a client could have seen. A single statement is atomic by itself
 * (SQLite undoes a failed one alone), so the statements may run side by side:
 * SQLite's mutex takes them one at a time, straight from libuv's pool without
 * waiting for the event loop between them, and the transactions, which must
 * see nothing of each other half done, then run alone.
 */
async function runBatch(
  batch: Job[],
  guard: RollbackGuard,
): Promise<{ outcomes: PromiseSettledResult<unknown>[]; undo: boolean }> {
  const outcomes: PromiseSettledResult<unknown>[] = [];
  const statements: Array<Promise<void>> = [];
  batch.forEach((job, index) => {
    if ('statement' in job) {
      statements.push(settled(statementOf(guard.runner, job)).then((outcome) => void (outcomes[index] = outcome)));
    }
  });
  await Promise.all(statements);
  guard.statementsEnded();
  // The units one after another, then the rows they made, one statement per SQL text.
  const trailing = new Map<string, unknown[][]>();
  const made = { undo: false };
  for (const [index, job] of batch.entries()) {
    if (!('unit' in job)) continue;
    const failure = guard.failure;
    outcomes[index] = failure ? rejected(failure.error) : await unitOf(guard.runner, job, trailing, made);
  }
  let undo = made.undo;
  for (const [sql, rows] of trailing) {
    if (guard.failure) break;
    const written = await settled(guard.runner.query(sql, [JSON.stringify(rows)], true));
    undo ||= written.status === 'rejected';
  }
  for (const [index, job] of batch.entries()) {
    if (!('work' in job)) continue;
    const failure = guard.failure;
    if (undo) outcomes[index] = rejected(new BatchUndone());
    else outcomes[index] = failure ? rejected(failure.error) : await inSavepoint(guard.runner, job.work);
  }
  return { outcomes, undo };
}

/**
 * A unit of work's writes, undone if they fail (under a savepoint when there are several), and the rows it makes
 * after them kept for the batch's statement. Rows that cannot be made undo the batch (`made.undo`): its writes ran.
 */
async function unitOf(
  runner: QueryRunner,
  job: { unit: (runner: QueryRunner) => Promise<Trailing | undefined>; savepoint: boolean },
  trailing: Map<string, unknown[][]>,
  made: { undo: boolean },
): Promise<PromiseSettledResult<unknown>> {
  if (job.savepoint) await control(runner, 'SAVEPOINT job');
  const outcome = await settled(job.unit(runner));
  if (outcome.status === 'rejected') {
    if (job.savepoint && !isDatabaseUnavailable(outcome.reason)) await control(runner, 'ROLLBACK TO job');
    return outcome;
  }
  const after = outcome.value;
  if (!after) return outcome;
  try {
    const rows = after.rows();
    const kept = trailing.get(after.sql);
    if (kept) kept.push(...rows);
    else if (rows.length > 0) trailing.set(after.sql, rows);
  } catch (error) {
    made.undo = true;
    return rejected(error);
  }
  return outcome;
}

/**
 * The batch's connection, through which nothing more runs once a statement has met an error that may have made SQLite
 * roll back the whole transaction by itself (a full disk, an I/O error: the driver's "unavailable" codes): a
 * statement after such a rollback would commit on its own, outside the batch. Every statement of the batch's jobs
 * goes through `runner`; the query runner itself is shared by every batch (TypeORM's SQLite driver has one), and is
 * not changed.
 */
class RollbackGuard {
  /** The first such error, and whether the single statements were still running when it came. */
  failure?: { error: unknown; duringStatements: boolean };
  readonly runner: QueryRunner;
  private duringStatements = true;

  constructor(shared: QueryRunner) {
    this.runner = interceptQueries(shared, (args) => this.query(shared, args));
  }

  statementsEnded(): void {
    this.duringStatements = false;
  }

  private async query(shared: QueryRunner, args: Parameters<QueryRunner['query']>): Promise<unknown> {
    if (this.failure) throw this.failure.error;
    try {
      return await shared.query(...args);
    } catch (error) {
      if (isDatabaseUnavailable(error)) this.failure ??= { error, duringStatements: this.duringStatements };
      throw error;
    }
  }
}

/** A write's failure as answered: "may have been applied" when SQLite's storage failed as it may have committed. */
function unconfirmedIfUnknown(error: unknown): unknown {
  return isOutcomeUnknown(error) ? new UnconfirmedWrite(error) : error;
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
  // The storage's failure ends the whole batch (RollbackGuard): nothing more runs on the connection. A transaction
  // abandoned (TransactionFence) is answered as unavailable too, but its work is undone here, alone.
  if (
    outcome.status === 'rejected' &&
    (outcome.reason instanceof TransactionAbandoned || !isDatabaseUnavailable(outcome.reason))
  ) {
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

function settleEach(batch: Job[], outcomes: PromiseSettledResult<unknown>[]): void {
  batch.forEach((job, index) => job.settle(outcomes[index]));
}
