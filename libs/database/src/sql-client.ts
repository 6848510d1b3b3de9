import { AsyncLocalStorage } from 'node:async_hooks';
import { Injectable, Optional, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { OPEN_FULLMUTEX, OPEN_READWRITE } from 'sqlite3';
import { InjectDataSource } from '@nestjs/typeorm';
import type { Pool, QueryResult } from 'pg';
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
import type { UnitOfWork } from '@app/platform/ports';
import { UnconfirmedWrite, isOutcomeUnknown, isSerializationFailure } from './driver-errors';
import type { GuardedSqlite3 } from './guarded-sqlite3';
import { PostgresConnection } from './postgres-connection';
import { SqlDialect } from './sql-dialect';
import { writeResultOf, type WriteResult } from './write-result';
import { connect } from './connect';
import { SqliteWriteBatches, type Carry } from './sqlite-write-batches';
import { SqlSpans } from './sql-spans';
import { DatabaseSettings } from './database.settings';
import { TransactionFence } from './transaction-fence';
import { TransactionOnDemand } from './transaction-on-demand';

/**
 * A row written with a write, made of what the code that made the write returned. `sql` takes rows as one parameter,
 * a JSON array of rows, each an array of JSON values (SQLite's `json_each($1)`, PostgreSQL's
 * `jsonb_array_elements(CAST($1 AS jsonb))`): on SQLite the rows all the writes of a batch carry are one statement.
 */
export interface CarriedRow<T> {
  readonly sql: string;
  row(result: T): unknown[];
}

/**
 * A PostgreSQL transaction that could not be serialized with those beside it runs again after a pause drawn at random
 * up to a ceiling that starts here and doubles with each attempt, to {@link RETRY_CEILING_MS} at most ("full jitter"):
 * the transactions that clashed spread apart instead of clashing again in step. It runs again while the pause ends
 * within DATABASE_TIMEOUT_MS of its first attempt (the request's time budget for the database).
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
 * How repositories talk to the database: TypeORM's repositories
 * (`repository(Entity)`), or SQL written once (`dialect`) for a hot path, and
 * transactions, through TypeORM's DataSource.
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
export class SqlClient implements UnitOfWork, OnModuleInit, OnApplicationShutdown {
  readonly dialect: SqlDialect;
  private readonly current = new AsyncLocalStorage<QueryRunner>();
  /** The callbacks of the outermost transaction the calling code runs in, for after its commit. */
  private readonly commitHooks = new AsyncLocalStorage<Array<() => void>>();
  /** SQLite: the code `carrying()` runs, whose one write carries another. */
  private readonly carriers = new AsyncLocalStorage<Carrier>();
  /** The code `onDemand()` runs: its first statement opens the transaction. */
  private readonly demand = new AsyncLocalStorage<TransactionOnDemand>();
  /** PostgreSQL: the pool of TypeORM's driver, which reads outside a transaction take directly (prepared by name). */
  private readonly pool?: Pool;
  /** PostgreSQL: each statement's name, as it is prepared on a connection the first time that connection runs it. */
  private readonly names = new Map<string, string>();
  /** SQLite: the writing connection, and the writes' one path to it. */
  private writer?: Promise<DataSource>;
  private readonly writes: SqliteWriteBatches;
  /** How long a transaction's work may wait on anything but its statements (TransactionFence). */
  private readonly idleMs: number;
  /** DATABASE_TIMEOUT_MS: how long a PostgreSQL transaction may go on running again after serialization failures. */
  private readonly budgetMs: number;

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
    if (this.isPostgres) this.pool = (dataSource.driver as unknown as { master: Pool }).master;
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
      'Transactions PostgreSQL could not serialize with others and that ran again, their work with them (within DATABASE_TIMEOUT_MS).',
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
    if (this.pool) return this.pooled<T>(sql, parameters);
    return this.dataSource.query(sql, parameters);
  }

  /**
   * PostgreSQL, outside a transaction: the statement on a pooled connection, prepared there by name the first time
   * (parsed and planned once per connection, not on every call), without TypeORM's query runner around it. A failure
   * is TypeORM's QueryFailedError, as from a runner.
   */
  private async pooled<T>(sql: string, parameters: unknown[]): Promise<T[]> {
    let name = this.names.get(sql);
    if (name === undefined && this.names.size < NAMED_STATEMENTS) {
      name = `petstore_${this.names.size}`;
      this.names.set(sql, name);
    }
    try {
      return (await this.pool!.query({ name, text: sql, values: parameters })).rows as T[];
    } catch (error) {
      throw new QueryFailedError(sql, parameters, error as Error);
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
    const runner = this.current.getStore() ?? (await this.demand.getStore()?.runner());
    if (runner) return writeResultOf(await runner.query(sql, parameters, true));
    if (!this.isPostgres) return this.carriers.getStore()?.write(sql, parameters) ?? this.writes.write(sql, parameters);
    const pooled = this.dataSource.createQueryRunner();
    try {
      // Connected first: a failure to connect sent nothing, one after may have committed.
      await pooled.connect();
      return writeResultOf(await confirmed(pooled.query(sql, parameters, true)));
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
   * Runs `work` in one transaction: committed if it resolves, rolled back if
   * it throws. The promise, the same on both databases (docs/extending.md,
   * "Transactions"):
   * - **serializable**: the outcome is that of running the transactions one at
   *   a time in some order, so a read and a write that depends on it hold
   *   together (two same-tick reservations of one pet: exactly one wins);
   * - **all or nothing**: a throw, or a failed commit, leaves nothing of it;
   * - **joined**: `transaction()` inside `work`, however deep (another
   *   module's repository), joins this one rather than begin its own;
   * - **never held idle**: `work` that waits on anything but its own statements
   *   for DATABASE_TRANSACTION_IDLE_MS has the transaction rolled back and its
   *   later statements refused (TransactionFence, decision 0032).
   *
   * On SQLite `work` runs exactly once. On PostgreSQL the database may refuse
   * to commit a transaction that could not be serialized with others running
   * beside it (SQLSTATE 40001, or a deadlock, 40P01): everything it did is
   * rolled back and `work` runs again after a jittered pause that grows with
   * each attempt, for as long as DATABASE_TIMEOUT_MS from the first attempt
   * allows, after which the caller gets the error (answered 503
   * `database_unavailable`). So keep in `work` only what the database undoes:
   * no call to another service, no message sent, no counter outside it.
   */
  transaction<T>(work: () => Promise<T>): Promise<T> {
    return this.transactionOf(work, 'SERIALIZABLE');
  }

  /**
   * {@link transaction}, at `isolation` on PostgreSQL when it begins one (`undefined`: the server's default, READ
   * COMMITTED, for {@link carrying}'s writes alone). Joined, it runs at the isolation of the transaction it joins.
   */
  private transactionOf<T>(work: () => Promise<T>, isolation: 'SERIALIZABLE' | undefined): Promise<T> {
    if (this.current.getStore()) return work();
    const demand = this.demand.getStore();
    if (demand) return demand.runner().then((runner) => this.current.run(runner, work));
    if (this.carriers.getStore()) {
      return Promise.reject(new Error('carrying() runs one write: a transaction inside it would wait for its batch'));
    }
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

  private async transactionNow<T>(
    work: () => Promise<T>,
    isolation: 'SERIALIZABLE' | undefined,
    last?: (result: T) => Closing,
  ): Promise<T> {
    if (!this.isPostgres) return this.writes.transaction(work);
    const deadline = Date.now() + this.budgetMs;
    for (let ceiling = RETRY_FIRST_CEILING_MS; ; ceiling = Math.min(ceiling * 2, RETRY_CEILING_MS)) {
      try {
        return await this.postgresTransaction(work, isolation, last);
      } catch (error) {
        const pauseMs = Math.random() * ceiling;
        if (!isSerializationFailure(error) || Date.now() + pauseMs >= deadline) throw error;
        this.retries?.inc();
        await new Promise((resolve) => setTimeout(resolve, pauseMs));
      }
    }
  }

  /**
   * Runs `change`, code that makes exactly one write (a repository's insert), and writes the row `carried` makes of
   * what `change` returns: both commit, or neither. What {@link transaction} around the two would do, and inside a
   * transaction, or on PostgreSQL, what it does; on PostgreSQL, outside one, that transaction is READ COMMITTED, the
   * level its write has alone: the write reads nothing the order could change, so no order of it with others is wrong,
   * and it saves a round trip, never fails to serialize, and never makes a serializable transaction that read where it
   * inserts fail to (decision 0021). On SQLite, outside one, the write rides the write batch beside its
   * single statements instead, and the rows of all the batch's carrying writes are one statement before its commit
   * (decision 0030): `change` is told its write's result as soon as it ran, before the batch commits, and the batch
   * waits for its row; the promise resolves once both committed. So `change` makes one write and nothing slow after
   * it, and no transaction.
   */
  carrying<T>(change: () => Promise<T>, carried: CarriedRow<T>): Promise<T> {
    if (this.isPostgres && !this.current.getStore() && !this.demand.getStore()) {
      const last = (result: T): Closing => ({ sql: carried.sql, parameters: [JSON.stringify([carried.row(result)])] });
      return this.spans
        ? this.spans.transaction(change, (traced) => this.transactionNow(traced, undefined, last))
        : this.transactionNow(change, undefined, last);
    }
    if (this.current.getStore() || this.demand.getStore()) {
      const both = async () => {
        const result = await change();
        await this.write(carried.sql, [JSON.stringify([carried.row(result)])]);
        return result;
      };
      return this.transactionOf(both, undefined);
    }
    const carrier = new Carrier(this.writes, carried.sql);
    return this.carriers.run(carrier, change).then(
      (result) => carrier.carry(() => carried.row(result)).then(() => result),
      (error: unknown) => carrier.abandon(error),
    );
  }

  /** UnitOfWork: {@link transaction}, for application layers, which see the port and not the client. */
  run<T>(work: () => Promise<T>): Promise<T> {
    return this.transaction(work);
  }

  private async postgresTransaction<T>(
    work: () => Promise<T>,
    isolation: 'SERIALIZABLE' | undefined,
    last?: (result: T) => Closing,
  ): Promise<T> {
    const runner = this.dataSource.createQueryRunner();
    const connection = (await runner.connect()) as PostgresConnection;
    try {
      const begun = begin(connection, runner, isolation);
      let result: T;
      try {
        result = await this.fenced(runner, work);
        connection.flush();
        await begun;
      } catch (error) {
        connection.flush();
        await begun.catch(() => undefined);
        // A connection whose rollback did not complete may still hold the transaction: it goes, it is not pooled.
        await runner.rollbackTransaction().catch(() => discard(runner));
        throw error;
      }
      if (last) await this.commitWith(connection, runner, last(result));
      else await confirmed(runner.commitTransaction());
      return result;
    } finally {
      await runner.release();
    }
  }

  /** The transaction's last statement and its COMMIT, sent together: one round trip. */
  private async commitWith(connection: PostgresConnection, runner: QueryRunner, closing: Closing): Promise<void> {
    const { sql, parameters } = closing;
    const [written, committed] = connection.together(() => [
      send(connection, sql, parameters),
      send(connection, 'COMMIT'),
    ]);
    // Read once the row's answer is: a failure of the COMMIT that comes with it is not an unhandled one meanwhile.
    committed.catch(() => undefined);
    Object.assign(runner, { isTransactionActive: false, transactionDepth: 0 });
    try {
      // The COMMIT went with it: a row whose answer was lost (the connection, a read timeout) may have committed.
      await confirmed(this.spans ? this.spans.statement(sql, () => written) : written);
    } catch (error) {
      // A refused row failed the transaction, and the COMMIT behind it answers with a rollback; a lost connection goes.
      await committed.catch(() => discard(runner));
      throw error;
    }
    const { command } = await confirmed(committed);
    if (command !== 'COMMIT') throw new Error(`COMMIT answered ${command}`);
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
 * `sql` sent on `connection` now (in pipeline mode, behind what was sent before it, without waiting for its answer); a
 * failure is TypeORM's QueryFailedError, as from a runner.
 */
function send(connection: PostgresConnection, sql: string, parameters: unknown[] = []): Promise<QueryResult> {
  return (connection.query(sql, parameters) as Promise<QueryResult>).catch((error: unknown) => {
    throw new QueryFailedError(sql, parameters, error as Error);
  });
}

/** A transaction's last statement, sent with its COMMIT. */
interface Closing {
  readonly sql: string;
  readonly parameters: unknown[];
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
 * Begins a PostgreSQL transaction at `isolation`, sent at once and not waited for: the transaction's first statement
 * follows it on the connection (node-postgres' pipeline mode) instead of a round trip later. The statements after it
 * run inside it whatever the answer: on a connection that works, START TRANSACTION does not fail (its answer is read
 * before the commit); on one that fails, neither do they run. TypeORM's startTransaction() takes two round trips (START
 * TRANSACTION, then SET TRANSACTION ISOLATION LEVEL). The runner is marked as startTransaction() marks it, so that
 * TypeORM's own calls (a repository's save()) join the transaction rather than begin one, and its
 * commitTransaction() and rollbackTransaction() end it.
 */
function begin(
  connection: PostgresConnection,
  runner: QueryRunner,
  isolation: 'SERIALIZABLE' | undefined,
): Promise<unknown> {
  const sql = isolation ? `START TRANSACTION ISOLATION LEVEL ${isolation}` : 'START TRANSACTION';
  const begun = connection.sendWithNext(sql).catch((error: unknown) => {
    throw new QueryFailedError(sql, [], error as Error);
  });
  // Read before the commit; a failure meanwhile (the connection lost while the work runs) is not an unhandled one.
  begun.catch(() => undefined);
  Object.assign(runner, { isTransactionActive: true, transactionDepth: 1 });
  return begun;
}

/** Closes the runner's connection, so that the pool, which takes back no connection that cannot be queried, drops it. */
async function discard(runner: QueryRunner): Promise<void> {
  // Connected already: connect() hands back its connection.
  const connection: unknown = await runner.connect();
  if (connection instanceof PostgresConnection) connection.discard();
}

/**
 * SQLite: the one write of `carrying()`'s code, and the row it carries, as one job of the write batches. The write's
 * promise resolves as soon as it ran (its result told to the code that made it); the row follows; `carry()` resolves
 * once the batch committed both.
 */
class Carrier {
  private job?: Promise<WriteResult>;
  private readonly row = Promise.withResolvers<unknown[]>();

  constructor(
    private readonly writes: SqliteWriteBatches,
    private readonly sql: string,
  ) {
    // Read by the batch only once the write ran; a write that failed never reads it.
    this.row.promise.catch(() => undefined);
  }

  write(sql: string, parameters: unknown[]): Promise<WriteResult> {
    if (this.job) return Promise.reject(new Error('carrying() runs one write: make the others in a transaction'));
    const ran = Promise.withResolvers<WriteResult>();
    const carry: Carry = { sql: this.sql, ran: ran.resolve, row: this.row.promise };
    this.job = this.writes.carrying(sql, parameters, carry);
    // A write that failed, or a batch that failed before it ran, fails the code that made it.
    this.job.catch(ran.reject);
    return ran.promise;
  }

  async carry(row: () => unknown[]): Promise<void> {
    if (!this.job) throw new Error('carrying() runs one write, and this code made none');
    try {
      this.row.resolve(row());
    } catch (error) {
      this.row.reject(error);
    }
    await this.job;
  }

  /** The code failed: a write it made is undone with its batch (the carried row never comes). */
  async abandon(error: unknown): Promise<never> {
    this.row.reject(error);
    await this.job?.catch(() => undefined);
    throw error;
  }
}

function afterCommit<T>(callbacks: Array<() => void>, result: T): T {
  for (const callback of callbacks) callback();
  return result;
}
