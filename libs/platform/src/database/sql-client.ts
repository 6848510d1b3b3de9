import { AsyncLocalStorage } from 'node:async_hooks';
import { Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, type QueryRunner } from 'typeorm';
import { SqlDialect } from './sql-dialect';

/**
 * How repositories talk to the database: reads, writes, and transactions,
 * through TypeORM's DataSource, with SQL written once (`dialect`).
 *
 * TypeORM's SQLite driver has one connection and one query runner for the
 * whole process, so a transaction begun on it would take in every other
 * request's statements. On SQLite, writes therefore have a connection of
 * their own (a second DataSource on the same file) and run one at a time,
 * transactions included, while reads keep the first connection: WAL lets the
 * reader see every committed write, and writes never queue behind reads. On
 * PostgreSQL, reads and writes share the pool and a transaction takes a
 * connection of its own.
 *
 * Inside `transaction()`, every read and write of the calling code, however
 * deep, goes to the transaction's connection (AsyncLocalStorage), so a
 * repository needs no transaction parameter.
 */
@Injectable()
export class SqlClient implements OnApplicationShutdown {
  readonly dialect: SqlDialect;
  private readonly current = new AsyncLocalStorage<QueryRunner>();
  /** SQLite: the writer connection, opened on first use, and the tail of its queue. */
  private writer?: Promise<DataSource>;
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
    return this.serially(async (writer) => writer.query(sql, parameters));
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

  /** SQLite: `work` on the writer connection, after every write queued before it. */
  private serially<T>(work: (writer: DataSource) => Promise<T>): Promise<T> {
    const run = this.queue.then(async () => work(await this.writerConnection()));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private writerConnection(): Promise<DataSource> {
    this.writer ??= (async () => {
      const writer = await new DataSource({ ...this.dataSource.options, migrations: [] } as never).initialize();
      // WAL (set by TypeORM) with FULL: a commit is fsynced before it is acknowledged.
      await writer.query('PRAGMA synchronous = FULL');
      return writer;
    })();
    this.writer.catch(() => (this.writer = undefined));
    return this.writer;
  }

  /** After the HTTP server has closed and its requests have finished, as TypeORM closes its own DataSource. */
  async onApplicationShutdown(): Promise<void> {
    await this.queue;
    const writer = await this.writer?.catch(() => undefined);
    await writer?.destroy();
  }
}
