import { AsyncLocalStorage } from 'node:async_hooks';
import { Injectable, Optional, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { OPEN_FULLMUTEX, OPEN_READWRITE } from 'sqlite3';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Client } from 'pg';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import {
  DataSource,
  QueryFailedError,
  type DataSourceOptions,
  type EntityTarget,
  type ObjectLiteral,
  type QueryRunner,
  type Repository,
} from 'typeorm';
import type { Counter } from 'prom-client';
import { MetricsService, RequestTracing } from '@app/platform';
import { UnconfirmedWrite, isOutcomeUnknown, isSerializationFailure } from './driver-errors';
import type { GuardedSqlite3 } from './guarded-sqlite3';
import { SqlDialect } from './sql-dialect';
import { writeResultOf, type WriteResult } from './write-result';
import { connect } from './connect';
import { SqliteWriteBatches, type Trailing } from './sqlite-write-batches';
import { SqlSpans } from './sql-spans';
import { DatabaseSettings } from './database.settings';
import { TransactionFence } from './transaction-fence';
import { TransactionOnDemand } from './transaction-on-demand';
import { ConcurrentChange, PendingUnit, type EventSource, type UnitWrite } from './unit-writes';

/** A transaction's isolation on PostgreSQL (SQLite's transactions are serializable, one at a time). */
export type Isolation = 'SERIALIZABLE' | 'READ COMMITTED';

/**
 * A transaction or unit of work that met a concurrent change (a PostgreSQL serialization failure, a row changed since
 * it was read) runs again after a pause drawn at random up to a ceiling that starts here and doubles with each attempt,
 * to {@link RETRY_CEILING_MS} at most ("full jitter"): those that clashed spread apart instead of clashing again in
 * step. It runs again while the pause ends within DATABASE_TIMEOUT_MS of its first attempt (the request's budget).
 */
const RETRY_FIRST_CEILING_MS = 4;
const RETRY_CEILING_MS = 250;
/** DATABASE_TRANSACTION_IDLE_MS's and DATABASE_TIMEOUT_MS's defaults, for a client made without the settings. */
const DEFAULT_IDLE_MS = 50;
const DEFAULT_WAIT_MS = 3_000;
/**
 * PostgreSQL: how many statements are prepared by name on each connection, the first ones read; a statement past them
 * (SQL built with values in its text, say) is sent unnamed, parsed each time, as before.
 */
const NAMED_STATEMENTS = 200;

/**
 * How repositories talk to the database: SQL written once (`dialect`), read
 * and written at once (`read`, `write`) or, inside a unit of work, written when
 * it commits (`persist`), and TypeORM's repositories (`repository(Entity)`);
 * and the platform's transactions, through TypeORM's DataSource.
 *
 * TypeORM's SQLite driver has one connection and one query runner for the
 * whole process, so a transaction begun on it would take in every other
 * request's statements. On SQLite there are therefore two connections to the
 * same file (DataSources): reads stay on TypeORM's first one; every write,
 * single statement or transaction, takes the one ordered path of
 * {@link SqliteWriteBatches} on the second, so that a commit's fsync, which
 * holds its connection's mutex, never holds up the reads (WAL lets them run
 * beside it) and writes never wait for each other's locks. On PostgreSQL,
 * statements share the pool and a transaction takes a pooled connection of
 * its own.
 *
 * Inside `transaction()`, every read and write of the calling code, however
 * deep, goes to the transaction's connection (AsyncLocalStorage), so a
 * repository needs no transaction parameter.
 */
@Injectable()
export class SqlClient implements OnModuleInit, OnApplicationShutdown {
  readonly dialect: SqlDialect;
  private readonly current = new AsyncLocalStorage<QueryRunner>();
  /** The callbacks of the outermost transaction the calling code runs in, for after its commit. */
  private readonly commitHooks = new AsyncLocalStorage<Array<() => void>>();
  /** The unit of work the calling code runs in: what its repositories persist() (UnitOfWork.run()). */
  private readonly units = new AsyncLocalStorage<PendingUnit>();
  /** The code `onDemand()` runs: its first statement opens the transaction. */
  private readonly demand = new AsyncLocalStorage<TransactionOnDemand>();
  /** PostgreSQL: each statement's name, as it is prepared on a connection the first time that connection runs it. */
  private readonly names = new Map<string, string>();
  /** SQLite: the writing connection, and the writes' one path to it. */
  private writer?: Promise<DataSource>;
  private readonly writes: SqliteWriteBatches;
  /** How long a transaction's work may wait on anything but its statements (TransactionFence). */
  private readonly idleMs: number;
  /** DATABASE_TIMEOUT_MS: how long a transaction (or a unit of work) may go on running again after a conflict. */
  readonly budgetMs: number;

  /** With tracing on: each statement and transaction a span of the request's (`undefined`: no step of it runs). */
  private readonly spans?: SqlSpans;
  /** `<service>_transaction_retries_total`: PostgreSQL transactions run again (their `work` with them). */
  private readonly retries?: Counter;
  /** `<service>_transactions_abandoned_total`: transactions a fence rolled back before their work ended. */
  private readonly abandoned?: Counter<'reason'>;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Optional() tracing?: RequestTracing,
    @Optional() metrics?: MetricsService,
    @Optional() settings?: DatabaseSettings,
  ) {
    this.dialect = SqlDialect.of(dataSource);
    this.idleMs = settings?.transactionIdleMs ?? DEFAULT_IDLE_MS;
    this.budgetMs = settings?.timeoutMs ?? DEFAULT_WAIT_MS;
    this.writes = new SqliteWriteBatches(
      () => this.connection(),
      (runner, work) => this.fenced(runner, work),
      this.budgetMs,
    );
    if (tracing) this.spans = new SqlSpans(tracing, this.isPostgres ? 'postgresql' : 'sqlite');
    this.retries = metrics?.counter(
      'transaction_retries_total',
      'Transactions (and units of work) that met a concurrent change (a row changed since it was read, or PostgreSQL ' +
        'could not serialize them) and ran again, their work with them (within DATABASE_TIMEOUT_MS).',
    );
    this.abandoned = metrics?.counter(
      'transactions_abandoned_total',
      'Transactions rolled back before their work ended: it waited on something other than its statements ' +
        '(idle: DATABASE_TRANSACTION_IDLE_MS) or its owner gave it up (given_up: an event handler past its deadline).',
      ['reason'],
    );
  }

  /** SQLite: the writes waiting for the file's write lock or their batch's commit (0 on PostgreSQL). */
  get pendingWrites(): number {
    return this.writes.pending;
  }

  /** Whether the calling code runs inside `transaction()` (or `onDemand()`): what it writes commits with it. */
  get inTransaction(): boolean {
    return this.current.getStore() !== undefined || this.demand.getStore() !== undefined;
  }

  /** The unit of work the calling code runs in, if any (UnitOfWork.run()). */
  get unit(): PendingUnit | undefined {
    return this.units.getStore();
  }

  /** Runs `work` as the code of `unit`: what its repositories persist() is gathered there. */
  withinUnit<T>(unit: PendingUnit, work: () => Promise<T>): Promise<T> {
    return this.units.run(unit, work);
  }

  /**
   * Registers `aggregate` with the unit of work the calling code runs in, its row to be written as `write` makes it
   * when the unit commits (after the rows saved before it), with the events it recorded: what a repository's save()
   * does. Saved again in the same unit, it is written once. Outside a unit of work it throws: a save must commit with
   * the rest of its use case, or not at all.
   */
  persist(aggregate: EventSource, write: () => UnitWrite): void {
    const unit = this.units.getStore();
    if (!unit) throw new Error("save() outside UnitOfWork.run(): call a repository's save() inside a unit of work");
    unit.saved.set(aggregate, write);
  }

  /**
   * What `read` finds, read once per unit of work under `key` (`pets:42`): inside one, a second read of the same
   * aggregate is the first's, with the unit's own changes to it (a repository's findById()); outside, `read` itself.
   */
  readOnce<T>(key: string, read: () => Promise<T>): Promise<T> {
    const unit = this.units.getStore();
    if (!unit) return read();
    let found = unit.read.get(key) as Promise<T> | undefined;
    if (!found) unit.read.set(key, (found = read()));
    return found;
  }

  /**
   * Commits a unit of work's writes, in order, each told what it did, and then `after`'s rows (its events: one
   * statement, the rows given as a JSON array): all of it, or nothing. A guarded write that changed no row throws
   * {@link ConcurrentChange}. Inside a transaction they are written into it; on SQLite the unit is one job of the
   * write batches (its rows one statement with every other unit's of the batch); on PostgreSQL one READ COMMITTED
   * transaction.
   */
  commitUnit(writes: readonly UnitWrite[], after?: Trailing): Promise<void> {
    const writeAll = async (query: (sql: string, parameters: unknown[]) => Promise<WriteResult>) => {
      for (const write of writes) {
        const result = await query(write.sql, write.parameters);
        if ('inserted' in write) write.inserted(this.dialect.insertedId(result));
        else if (result.changed === 1) write.updated();
        else throw new ConcurrentChange(write.sql);
      }
    };
    const inOne = async () => {
      await writeAll((sql, parameters) => this.write(sql, parameters));
      const rows = after?.rows() ?? [];
      if (rows.length > 0) await this.write(after!.sql, [JSON.stringify(rows)]);
    };
    if (this.inTransaction) return inOne();
    if (this.isPostgres) return this.transaction(inOne, 'READ COMMITTED');
    // SQLite: one job of the batch, its statements on the batch's connection as the job runs (in this request's
    // trace, when tracing is on).
    let batchRunner: QueryRunner | undefined;
    const onBatch = (sql: string, parameters: unknown[]) => {
      const query = async () => writeResultOf(await batchRunner!.query(sql, parameters, true));
      return this.spans ? this.spans.statement(sql, query) : query();
    };
    // The rows made here, in the request's context (an event's trace parent), once the writes ran; a failure to make
    // them is the batch's to answer, its writes having run (SqliteWriteBatches undoes it).
    const run = async (): Promise<Trailing | undefined> => {
      await writeAll(onBatch);
      if (!after) return undefined;
      try {
        const rows = after.rows();
        return { sql: after.sql, rows: () => rows };
      } catch (error) {
        return {
          sql: after.sql,
          rows: () => {
            throw error;
          },
        };
      }
    };
    const enqueue = (bound: () => Promise<Trailing | undefined>) =>
      this.writes.unit((runner) => {
        batchRunner = runner;
        return bound();
      }, writes.length > 1);
    return (this.spans ? this.spans.transaction(run, enqueue) : enqueue(run)).then(() => undefined);
  }

  get isPostgres(): boolean {
    return this.dataSource.options.type === 'postgres';
  }

  read<T = Record<string, unknown>>(sql: string, parameters: unknown[] = []): Promise<T[]> {
    if (this.spans) return this.spans.statement(sql, () => this.readNow<T>(sql, parameters));
    return this.readNow(sql, parameters);
  }

  private readNow<T>(sql: string, parameters: unknown[]): Promise<T[]> {
    const runner = this.current.getStore();
    if (runner) return runner.query(sql, parameters);
    const demand = this.demand.getStore();
    if (demand) return demand.runner().then((opened) => opened.query(sql, parameters));
    if (this.isPostgres) return this.pooled<T>(sql, parameters);
    return this.dataSource.query(sql, parameters);
  }

  /**
   * PostgreSQL, outside a transaction: the statement on a connection of the pool (TypeORM's driver's
   * `obtainMasterConnection()`, no query runner around it), prepared there by name the first time (parsed and planned
   * once per connection, not on every call). A failure is TypeORM's QueryFailedError, as from a runner's query(); a
   * connection whose answer was lost goes back to the pool as failed, which drops it.
   */
  private async pooled<T>(sql: string, parameters: unknown[]): Promise<T[]> {
    let name = this.names.get(sql);
    if (name === undefined && this.names.size < NAMED_STATEMENTS) {
      name = `petstore_${this.names.size}`;
      this.names.set(sql, name);
    }
    let connection: [Client, (failed?: unknown) => void];
    try {
      connection = (await (this.dataSource.driver as PostgresDriver).obtainMasterConnection()) as typeof connection;
    } catch (error) {
      throw new QueryFailedError(sql, parameters, error as Error);
    }
    const [client, release] = connection;
    // A checked-out client emits its connection's failure itself (the query then fails too): heard, not unhandled.
    const lost = (): void => undefined;
    client.on('error', lost);
    try {
      const { rows } = await client.query({ name, text: sql, values: parameters });
      client.removeListener('error', lost);
      release();
      return rows as T[];
    } catch (error) {
      client.removeListener('error', lost);
      const failure = new QueryFailedError(sql, parameters, error as Error);
      release(isOutcomeUnknown(failure) ? error : undefined);
      throw failure;
    }
  }

  /**
   * One INSERT, UPDATE or DELETE, and what it did: how many rows it changed
   * (a conditional `UPDATE ... WHERE status = 'available'` that changed none
   * lost its race), and the rows of a `RETURNING` clause (PostgreSQL).
   */
  write(sql: string, parameters: unknown[] = []): Promise<WriteResult> {
    if (this.spans) return this.spans.statement(sql, () => this.writeNow(sql, parameters));
    return this.writeNow(sql, parameters);
  }

  private async writeNow(sql: string, parameters: unknown[]): Promise<WriteResult> {
    if (this.units.getStore()) {
      throw new Error(
        "write() inside UnitOfWork.run(): a unit of work writes what its repositories' save() persisted, when it commits",
      );
    }
    // Awaited only when there is a transaction to open: a write outside one joins the write batch in the caller's turn.
    const demand = this.demand.getStore();
    const runner = this.current.getStore() ?? (demand ? await demand.runner() : undefined);
    if (runner) return writeResultOf(await runner.query(sql, parameters, true));
    if (!this.isPostgres) return this.writes.write(sql, parameters);
    const pooled = this.dataSource.createQueryRunner();
    try {
      // Connected first: a failure to connect sent nothing, one after may have committed.
      await pooled.connect();
      return writeResultOf(await confirmed(pooled.query(sql, parameters, true)));
    } catch (error) {
      await discardIfLost(pooled, error);
      throw error;
    } finally {
      await pooled.release();
    }
  }

  /**
   * TypeORM's repository of `entity`: on the connection of the transaction
   * `transaction()` runs, when there is one, otherwise on the shared one.
   * Write inside `transaction()`: on SQLite that is the one connection that
   * writes (a write outside it would take the readers' connection). Its
   * statements are not traced, and on SQLite it reads an int64 as a double: a
   * module's tables take `read()` and `write()` (decision 0027).
   */
  repository<Entity extends ObjectLiteral>(entity: EntityTarget<Entity>): Repository<Entity> {
    const demand = this.demand.getStore();
    const runner = this.current.getStore() ?? demand?.openRunner;
    // A manager of the transaction's own runner (fenced), not `runner.manager`, which sends through the runner
    // underneath: the fence would see the repository's statements as none, and the transaction as idle.
    if (runner) return this.dataSource.createEntityManager(runner).getRepository(entity);
    if (demand) throw new Error('repository() in a transaction on demand: call it inside UnitOfWork.run()');
    return this.dataSource.getRepository(entity);
  }

  /**
   * Runs `work` in one transaction of the platform's own (the idempotency
   * record with its request's work, an event's handler with its progress):
   * committed if it resolves, rolled back if it throws. Application code takes
   * `UnitOfWork.run()` instead, which holds no transaction while its work runs.
   * The promise, the same on both databases (docs/extending.md, "Transactions"):
   * - **serializable** (by default; `isolation` says otherwise on PostgreSQL):
   *   the outcome is that of running the transactions one at a time in some
   *   order, so a read and a write that depends on it hold together;
   * - **all or nothing**: a throw, or a failed commit, leaves nothing of it;
   * - **joined**: `transaction()` inside `work`, however deep, joins this one
   *   rather than begin its own, and so does a unit of work's commit;
   * - **never held idle**: `work` that waits on anything but its own statements
   *   for DATABASE_TRANSACTION_IDLE_MS has the transaction rolled back and its
   *   later statements refused (TransactionFence, decision 0032).
   *
   * On SQLite `work` runs exactly once. On PostgreSQL the database may refuse
   * to commit a transaction that could not be serialized with others running
   * beside it (SQLSTATE 40001, or a deadlock, 40P01), and a unit of work's
   * guarded write inside it may find its row changed ({@link ConcurrentChange}):
   * everything it did is rolled back and `work` runs again after a jittered
   * pause that grows with each attempt, for as long as DATABASE_TIMEOUT_MS from
   * the first attempt allows, after which the caller gets the error. So keep in
   * `work` only what the database undoes.
   */
  transaction<T>(work: () => Promise<T>, isolation: Isolation = 'SERIALIZABLE'): Promise<T> {
    if (this.current.getStore()) return work();
    const demand = this.demand.getStore();
    if (demand) return demand.runner().then((runner) => this.current.run(runner, work));
    const committed: Array<() => void> = [];
    const withHooks = () => {
      // Each attempt starts with none: what a PostgreSQL attempt that was undone asked for is not run.
      committed.length = 0;
      return this.commitHooks.run(committed, work);
    };
    const done = this.spans
      ? this.spans.transaction(withHooks, (traced) => this.transactionNow(traced, isolation))
      : this.transactionNow(withHooks, isolation);
    return done.then((result) => afterCommit(committed, result));
  }

  /**
   * Runs `attempt` again after a {@link ConcurrentChange} or a PostgreSQL serialization failure (`conflict` says which
   * count), after a pause drawn at random up to a ceiling that doubles with each attempt ("full jitter"), while the
   * pause ends within DATABASE_TIMEOUT_MS of the first attempt; then the caller gets the error.
   */
  async retryingConflicts<T>(
    attempt: () => Promise<T>,
    conflict: (error: unknown) => boolean = (error) =>
      error instanceof ConcurrentChange || isSerializationFailure(error),
  ): Promise<T> {
    const deadline = Date.now() + this.budgetMs;
    for (let ceiling = RETRY_FIRST_CEILING_MS; ; ceiling = Math.min(ceiling * 2, RETRY_CEILING_MS)) {
      try {
        return await attempt();
      } catch (error) {
        const pauseMs = Math.random() * ceiling;
        if (!conflict(error) || Date.now() + pauseMs >= deadline) throw error;
        this.retries?.inc();
        await new Promise((resolve) => setTimeout(resolve, pauseMs));
      }
    }
  }

  /**
   * Runs `callback` once the transaction the caller is in has committed (never if it rolls back): a nudge to whoever
   * waits for what it wrote. It must not throw; it runs before the transaction's caller resumes.
   */
  onCommit(callback: () => void): void {
    const hooks = this.commitHooks.getStore() ?? this.demand.getStore()?.hooks;
    if (!hooks) throw new Error('onCommit() is for code inside transaction()');
    hooks.push(callback);
  }

  /**
   * A transaction that begins at the first statement of the code its `within()` runs, with `begin` run first in it,
   * and ends when its owner commits or abandons it (TransactionOnDemand): an event's handler, whose slow part before
   * its first statement must hold nothing. Not run again on a PostgreSQL serialization failure: its owner decides.
   */
  onDemand(begin: () => Promise<void>): TransactionOnDemand {
    return new TransactionOnDemand(
      (work) => {
        const run = (traced: () => Promise<void>) =>
          this.isPostgres ? this.postgresTransaction(traced, 'SERIALIZABLE') : this.writes.transaction(traced);
        return this.spans ? this.spans.transaction(work, run) : run(work);
      },
      () => this.current.getStore(),
      this.demand,
      begin,
    );
  }

  /** Runs a transaction's `work` with `runner`, fenced, as the current connection of its code. */
  private fenced<T>(runner: QueryRunner, work: () => Promise<T>): Promise<T> {
    const fence = new TransactionFence(runner, this.idleMs, (reason) => this.abandoned?.inc({ reason }));
    return fence.guard(this.current.run(fence.runner, work));
  }

  private transactionNow<T>(work: () => Promise<T>, isolation: Isolation): Promise<T> {
    if (!this.isPostgres) return this.writes.transaction(work);
    // A serialization failure alone: a ConcurrentChange inside says the unit of work that wrote it must read anew.
    return this.retryingConflicts(() => this.postgresTransaction(work, isolation), isSerializationFailure);
  }

  /**
   * A PostgreSQL transaction on a pooled connection of its own, begun, committed and rolled back by TypeORM's query
   * runner (so that TypeORM's own calls inside it, a repository's save(), join it). READ COMMITTED is the server's
   * default: begun without a second statement to set it.
   */
  private async postgresTransaction<T>(work: () => Promise<T>, isolation: Isolation): Promise<T> {
    const runner = this.dataSource.createQueryRunner();
    try {
      // Connected first: a failure to connect sent nothing.
      await runner.connect();
      await runner.startTransaction(isolation === 'READ COMMITTED' ? undefined : isolation);
      let result: T;
      try {
        result = await this.fenced(runner, work);
      } catch (error) {
        // A connection whose rollback did not complete may still hold the transaction: it goes, it is not pooled.
        await runner.rollbackTransaction().catch(() => discard(runner));
        throw error;
      }
      await confirmed(runner.commitTransaction()).catch(async (error: unknown) => {
        await discard(runner);
        throw error;
      });
      return result;
    } finally {
      await runner.release();
    }
  }

  /** SQLite: the writing connection, opened on first use, or again after it failed to open. */
  private connection(): Promise<DataSource> {
    if (this.writer) return this.writer;
    const opening = (async () => {
      // Without the create flag: if the file is gone, a write fails (503) rather than make a new, empty one.
      const options = {
        ...this.dataSource.options,
        migrations: [],
        flags: OPEN_READWRITE | OPEN_FULLMUTEX,
        // Every write takes it (SqliteWriteBatches): each statement is prepared once and run again.
        driver: (this.dataSource.options as { driver: GuardedSqlite3 }).driver.writing,
      };
      return connect(options as DataSourceOptions);
    })();
    this.writer = opening;
    opening.catch(() => {
      if (this.writer === opening) this.writer = undefined;
    });
    return opening;
  }

  /** SQLite: opens the writing connection at startup, so that the first write does not wait for it. */
  async onModuleInit(): Promise<void> {
    if (!this.isPostgres) await this.connection();
  }

  /** After the HTTP server has closed and its requests have finished, as TypeORM closes its own DataSource. */
  async onApplicationShutdown(): Promise<void> {
    await this.writes.idle();
    const connection = await this.writer?.catch(() => undefined);
    await connection?.destroy();
  }
}

/**
 * A commit (or a statement that commits by itself) whose answer never came: the server may have applied it. Told
 * apart from a refusal, so that the client hears "may have been applied" rather than "was not".
 */
async function confirmed<T>(commit: Promise<T>): Promise<T> {
  try {
    return await commit;
  } catch (error) {
    throw isOutcomeUnknown(error) ? new UnconfirmedWrite(error) : error;
  }
}

/**
 * Closes the runner's connection (node-postgres' `end()`), so that the pool, which takes back no connection that is
 * ending, drops it when the runner is released: a connection whose rollback failed may still hold its transaction.
 */
async function discard(runner: QueryRunner): Promise<void> {
  // Connected already: connect() hands back its connection.
  const client = (await runner.connect()) as Client;
  await client.end().catch(() => undefined);
}

/**
 * A connection whose statement's answer was lost (a read timeout: node-postgres, in pipeline mode, closes its socket)
 * is not pooled again, whatever state it is in.
 */
async function discardIfLost(runner: QueryRunner, error: unknown): Promise<void> {
  const lost = isOutcomeUnknown(
    error instanceof QueryFailedError ? error : new QueryFailedError('', [], error as Error),
  );
  if (lost) await discard(runner);
}

function afterCommit<T>(callbacks: Array<() => void>, result: T): T {
  for (const callback of callbacks) callback();
  return result;
}
