import type { Database } from 'sqlite3';
import { QueryFailedError, type DataSource, type QueryRunner } from 'typeorm';
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

/** A write waiting for its turn: one statement (with the one it carries, if any), or a transaction's work. */
type Write =
  | { statement: Statement; settle: Settle; carry?: Carry }
  | { work: (runner: QueryRunner) => Promise<unknown>; settle: Settle };
type Job = Write & {
  /** When it stops waiting for its batch (`performance.now()`), answered 503 if it has not begun by then. */
  expiresAt: number;
};

type Statement = { sql: string; parameters: unknown[] };

/**
 * A row a write carries: it commits with the write, or neither does. It is made of the write's result, which `ran`
 * is told as soon as the write has run, before the batch commits (SqlClient.carrying()). `sql` writes rows given as
 * one JSON array of rows (`$1`), so that the rows every write of a batch carries are written by one statement.
 */
export interface Carry {
  readonly sql: string;
  ran(result: WriteResult): void;
  readonly row: Promise<unknown[]>;
}

/** The one row of this temporary table says a batch's transaction is open on the writing connection. */
const MARK = 'INSERT INTO temp.write_batch (open) VALUES (1)';
const UNMARK = 'DELETE FROM temp.write_batch';
/** The error of a write the guard refused: it ran after SQLite's own rollback, and changed nothing. */
const GUARD_REFUSAL = 'a write to a table of carried writes outside a batch';

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
 * back and the others go on. No job's work runs twice.
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
  /** The tables a carrying job changes, whose writes are refused outside a batch's transaction (guard()). */
  private readonly guarded = new Set<string>();

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

  /** `sql`, and the row `carry` makes of its result after it: both commit, or neither (decision 0030). */
  carrying(sql: string, parameters: unknown[], carry: Carry): Promise<WriteResult> {
    if (!tableOf(sql) || !tableOf(carry.sql)) {
      return Promise.reject(
        new Error('a write that carries another, and the one carried, change one named table each'),
      );
    }
    return this.enqueue((settle) => ({ statement: { sql, parameters }, settle, carry })) as Promise<WriteResult>;
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
    await this.guard(runner, batch);
    // A lone statement commits by itself: no transaction around it (none once a table is guarded: it would be refused).
    if (batch.length === 1 && 'statement' in batch[0] && this.guarded.size === 0) {
      const outcome = await settled(statementOf(runner, batch[0]));
      return settleAll(batch, outcome.status === 'rejected' ? rejected(unconfirmedIfUnknown(outcome.reason)) : outcome);
    }
    const marked = this.guarded.size > 0;
    // IMMEDIATE: take the write lock at the start, not on the first write, so the batch cannot fail half-way on it.
    await (marked ? control(runner, `BEGIN IMMEDIATE; ${MARK}`) : runner.query('BEGIN IMMEDIATE')).catch(
      async (error: unknown) => {
        // The mark's failure leaves the transaction begun: it must not stay open for the next batch.
        if (marked) await control(runner, 'ROLLBACK').catch(() => undefined);
        throw error;
      },
    );
    markTransaction(runner, true);
    const guard = new RollbackGuard(runner);
    try {
      const outcomes = await runBatch(batch, guard);
      const failure = guard.failure;
      if (failure) return settleEach(batch, await answersAfter(runner, failure, batch, outcomes));
      if (outcomes.some(isCarryFailure)) {
        await control(runner, 'ROLLBACK');
        return settleEach(batch, outcomes.map(undone));
      }
      const commit = await settled(commitOf(runner, marked));
      if (commit.status === 'fulfilled') return settleEach(batch, outcomes);
      await control(runner, 'ROLLBACK').catch(() => undefined);
      // Each job that succeeded is answered with the commit's failure; one that failed by itself, with its own error.
      const failed = rejected(unconfirmedIfUnknown(commit.reason));
      settleEach(
        batch,
        outcomes.map((outcome) => (outcome.status === 'fulfilled' ? failed : outcome)),
      );
    } catch (error) {
      await control(runner, 'ROLLBACK').catch(() => undefined);
      settleAll(batch, rejected(error));
    } finally {
      markTransaction(runner, false);
    }
  }

  /**
   * Guards the tables the batch's carrying jobs change, before its transaction begins, the first time each is met: on
   * the writing connection a write to them is refused unless the batch's mark is there. SQLite's own rollback (a
   * full disk met half-way, decision 0021) undoes the mark with the rest, so a write and the one it carries that are
   * still queued after it cannot commit on their own, one without the other. Their tables' other writes are all in a
   * batch's transaction from then on (no lone statement).
   */
  private async guard(runner: QueryRunner, batch: Job[]): Promise<void> {
    const tables = new Set<string>();
    for (const job of batch) {
      if (!('carry' in job) || !job.carry) continue;
      for (const sql of [job.statement.sql, job.carry.sql]) {
        const table = tableOf(sql)!;
        if (!this.guarded.has(table)) tables.add(table);
      }
    }
    if (tables.size === 0) return;
    const statements = ['CREATE TEMP TABLE IF NOT EXISTS write_batch (open INTEGER NOT NULL)'];
    for (const table of tables) {
      for (const change of ['INSERT', 'UPDATE', 'DELETE']) {
        statements.push(
          `CREATE TEMP TRIGGER IF NOT EXISTS "write_batch_${table}_${change.toLowerCase()}" BEFORE ${change} ` +
            `ON main."${table}" WHEN NOT EXISTS (SELECT 1 FROM temp.write_batch) ` +
            `BEGIN SELECT RAISE(ABORT, '${GUARD_REFUSAL}'); END`,
        );
      }
    }
    await control(runner, statements.join(';\n'));
    for (const table of tables) this.guarded.add(table);
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
async function runBatch(batch: Job[], guard: RollbackGuard): Promise<PromiseSettledResult<unknown>[]> {
  const outcomes: PromiseSettledResult<unknown>[] = [];
  const statements: Array<Promise<void>> = [];
  batch.forEach((job, index) => {
    if ('statement' in job) {
      const written = statementOf(guard.runner, job).then((result) => (job.carry?.ran(result), result));
      statements.push(settled(written).then((outcome) => void (outcomes[index] = outcome)));
    }
  });
  await Promise.all(statements);
  await writeCarried(guard.runner, batch, outcomes);
  guard.statementsEnded();
  // A carried write that failed leaves its carrier written: the batch is rolled back, and runs no transaction.
  const undoing = outcomes.some(isCarryFailure);
  for (const [index, job] of batch.entries()) {
    if ('statement' in job) continue;
    const failure = guard.failure;
    if (undoing) outcomes[index] = rejected(new BatchUndone());
    else outcomes[index] = failure ? rejected(failure.error) : await inSavepoint(guard.runner, job.work);
  }
  return outcomes;
}

/**
 * The rows the batch's writes that ran carry, one statement for each carried statement's SQL (one for all the events
 * of a batch of creates), once each row is made. A row that could not be made, or a carried statement that failed
 * other than by the storage, fails its jobs with a {@link CarryFailure}: their writes are done, and only the batch's
 * rollback undoes them. The failure of a storage that failed is the batch's (RollbackGuard).
 */
async function writeCarried(runner: QueryRunner, batch: Job[], outcomes: PromiseSettledResult<unknown>[]) {
  const carried = new Map<string, Array<{ index: number; row: unknown[] }>>();
  for (const [index, job] of batch.entries()) {
    if (!('statement' in job) || !job.carry || outcomes[index].status === 'rejected') continue;
    const row = await settled(job.carry.row);
    if (row.status === 'rejected') outcomes[index] = rejected(new CarryFailure(row.reason));
    else {
      const rows = carried.get(job.carry.sql) ?? [];
      rows.push({ index, row: row.value });
      carried.set(job.carry.sql, rows);
    }
  }
  for (const [sql, rows] of carried) {
    const written = await settled(runner.query(sql, [JSON.stringify(rows.map(({ row }) => row))], true));
    if (written.status === 'fulfilled') continue;
    if (isDatabaseUnavailable(written.reason)) {
      for (const { index } of rows) outcomes[index] = written;
      continue;
    }
    // Which rows were refused: each alone (a failed statement is undone alone), so that the others are answered as
    // undone with the batch, to be sent again. If none is refused alone, each is answered with the refusal of them all.
    const alone = await Promise.all(rows.map(({ row }) => settled(runner.query(sql, [JSON.stringify([row])], true))));
    const refused = alone.some((outcome) => outcome.status === 'rejected');
    for (const [n, { index }] of rows.entries()) {
      const outcome = alone[n];
      const cause = outcome.status === 'rejected' ? outcome.reason : refused ? new BatchUndone() : written.reason;
      outcomes[index] = rejected(new CarryFailure(cause));
    }
  }
}

/** A carried write that failed after its carrier was written (or the code that makes its parameters threw). */
class CarryFailure extends Error {
  constructor(override readonly cause: unknown) {
    super('a carried write failed');
  }
}

function isCarryFailure(outcome: PromiseSettledResult<unknown>): boolean {
  return outcome.status === 'rejected' && outcome.reason instanceof CarryFailure;
}

/** A job's answer once its batch was rolled back for a carried write that failed: nothing of it was kept. */
function undone(outcome: PromiseSettledResult<unknown>): PromiseSettledResult<unknown> {
  if (outcome.status === 'fulfilled') return rejected(new BatchUndone());
  return outcome.reason instanceof CarryFailure ? rejected(outcome.reason.cause) : outcome;
}

function refusedByGuard(outcome: PromiseSettledResult<unknown>): boolean {
  return outcome.status === 'rejected' && String((outcome.reason as Error)?.message).includes(GUARD_REFUSAL);
}

/** The table an INSERT, UPDATE or DELETE changes, as the guard's triggers name it. */
function tableOf(sql: string): string | undefined {
  return /^\s*(?:INSERT(?:\s+OR\s+\w+)?\s+INTO|REPLACE\s+INTO|UPDATE(?:\s+OR\s+\w+)?|DELETE\s+FROM)\s+"?(\w+)"?[\s(]/i.exec(
    sql,
  )?.[1];
}

/** The batch's COMMIT (its mark taken away first, in the same call), failing as TypeORM's query() fails. */
async function commitOf(runner: QueryRunner, marked: boolean): Promise<void> {
  if (!marked) return void (await runner.query('COMMIT'));
  const sql = `${UNMARK}; COMMIT`;
  await control(runner, sql).catch((error: unknown) => {
    throw new QueryFailedError(sql, [], error as Error);
  });
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

/**
 * What each job of a batch that met an error that may have made SQLite roll back the whole transaction is answered.
 * The transaction is rolled back now, if SQLite has not done it: then nothing of the batch was kept, and each job is
 * answered with its own failure, or the batch's. If SQLite had rolled it back by itself while the single statements
 * ran side by side, those that ran after the rollback committed on their own, and which ran after it cannot be told:
 * each that succeeded is answered as a write that may have been applied (`UnconfirmedWrite`, 503
 * `commit_unconfirmed`). A write that carries another is not in doubt: after the rollback its table's guard refuses
 * it, and the one it carries, so nothing of it was kept. The transactions run after the statements, and nothing runs
 * after the error, so none of them is in doubt.
 */
async function answersAfter(
  runner: QueryRunner,
  failure: { error: unknown; duringStatements: boolean },
  batch: Job[],
  outcomes: PromiseSettledResult<unknown>[],
): Promise<PromiseSettledResult<unknown>[]> {
  const rolledBackBySqlite = await control(runner, 'ROLLBACK').then(
    () => false,
    (error: Error) => /no transaction is active/.test(error.message),
  );
  const answer = rejected(
    rolledBackBySqlite && failure.duringStatements ? new UnconfirmedWrite(failure.error) : failure.error,
  );
  return outcomes.map((outcome, index) => {
    const job = batch[index];
    if (('carry' in job && job.carry) || refusedByGuard(outcome)) return rejected(failure.error);
    return outcome.status === 'rejected' ? outcome : answer;
  });
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

function settleEach(batch: Job[], outcomes: PromiseSettledResult<unknown>[]): void {
  batch.forEach((job, index) => job.settle(outcomes[index]));
}
