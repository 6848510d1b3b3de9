import { AsyncLocalStorage } from 'node:async_hooks';
import { Injectable, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { OPEN_FULLMUTEX, OPEN_READWRITE } from 'sqlite3';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type QueryRunner } from 'typeorm';
import { SqlDialect } from './sql-dialect';

/**
 * How repositories talk to the database: reads, writes, and transactions,
 * through TypeORM's DataSource, with SQL written once (`dialect`).
 *
 * TypeORM's SQLite driver has one connection and one query runner for the
 * whole process, so a transaction begun on it would take in every other
 * request's statements. On SQLite, there are therefore three connections to
 * the same file (DataSources): reads stay on TypeORM's first one; single
 * writes have one of their own, so that a commit's fsync, which holds its
 * connection's mutex, never holds up the reads (WAL lets them run beside it);
 * transactions have the third, one at a time. node-sqlite3 pipelines the
 * single writes (a queue of our own in front of them halved the create rate),
 * and SQLite's lock with the busy timeout orders them against a transaction.
 * On PostgreSQL, statements share the pool and a transaction takes a pooled
 * connection of its own.
 *
 * Inside `transaction()`, every read and write of the calling code, however
 * deep, goes to the transaction's connection (AsyncLocalStorage), so a
 * repository needs no transaction parameter.
 */
@Injectable()
export class SqlClient implements OnModuleInit, OnApplicationShutdown {
  readonly dialect: SqlDialect;
  private readonly current = new AsyncLocalStorage<QueryRunner>();
  /** SQLite: the single writes' connection, the transactions' connection, and the tail of their queue. */
  private writer?: Promise<DataSource>;
  private transactor?: Promise<DataSource>;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    this.dialect = SqlDialect.of(dataSource);
  }

  get isPostgres(): boolean {
    return this.dataSource.options.type === 'postgres';
  }

  read<T = Record<string, unknown>>(sql: string, parameters: unknown[] = []): Promise<T[]> {
    const runner = this.current.getStore();
    return runner ? runner.query(sql, parameters) : this.dataSource.query(sql, parameters);
  }

  write(sql: string, parameters: unknown[] = []): Promise<unknown> {
    const runner = this.current.getStore();
    if (runner) return runner.query(sql, parameters);
    if (this.isPostgres) return this.dataSource.query(sql, parameters);
    return (this.writer ?? this.connection('writer')).then((writer) => writer.query(sql, parameters));
  }

  /** Runs `work` in one transaction: committed if it resolves, rolled back if it throws. */
  async transaction<T>(work: () => Promise<T>): Promise<T> {
    if (this.current.getStore()) return work();
    if (this.isPostgres) {
      const runner = this.dataSource.createQueryRunner();
      await runner.connect();
      try {
        return await this.inTransaction(runner, 'BEGIN', work);
      } finally {
        await runner.release();
      }
    }
    // IMMEDIATE: take the write lock at the start, not on the first write, so the transaction cannot fail half-way on it.
    return this.serially((writer) => this.inTransaction(writer.createQueryRunner(), 'BEGIN IMMEDIATE', work));
  }

  private async inTransaction<T>(runner: QueryRunner, begin: string, work: () => Promise<T>): Promise<T> {
    await runner.query(begin);
    let result: T;
    try {
      result = await this.current.run(runner, work);
    } catch (error) {
      await runner.query('ROLLBACK').catch(() => undefined);
      throw error;
    }
    await runner.query('COMMIT');
    return result;
  }

  /** SQLite: `work` on the transactions' connection, after every transaction queued before it. */
  private serially<T>(work: (writer: DataSource) => Promise<T>): Promise<T> {
    const run = this.queue.then(async () => work(await (this.transactor ?? this.connection('transactor'))));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** SQLite: opens one of the writing connections, or reopens it after it failed to open. */
  private connection(which: 'writer' | 'transactor'): Promise<DataSource> {
    const opening = (async () => {
      // Without the create flag: if the file is gone, a write fails (503) rather than make a new, empty one.
      const options = { ...this.dataSource.options, migrations: [], flags: OPEN_READWRITE | OPEN_FULLMUTEX };
      const connection = await new DataSource(options as never).initialize();
      // WAL (set by TypeORM) with FULL: a commit is fsynced before it is acknowledged.
      await connection.query('PRAGMA synchronous = FULL');
      return connection;
    })();
    this[which] = opening;
    opening.catch(() => {
      if (this[which] === opening) this[which] = undefined;
    });
    return opening;
  }

  /** SQLite: opens the writing connections at startup, so that the first write does not wait for them. */
  async onModuleInit(): Promise<void> {
    if (!this.isPostgres) await Promise.all([this.connection('writer'), this.connection('transactor')]);
  }

  /** After the HTTP server has closed and its requests have finished, as TypeORM closes its own DataSource. */
  async onApplicationShutdown(): Promise<void> {
    await this.queue;
    for (const opening of [this.writer, this.transactor]) {
      const connection = await opening?.catch(() => undefined);
      await connection?.destroy();
    }
  }
}
