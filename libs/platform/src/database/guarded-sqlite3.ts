import * as sqlite3 from 'sqlite3';
import type { SqliteFileIdentity } from './sqlite-file-identity';

type Callback = (this: unknown, error: Error | null, ...results: unknown[]) => void;
type Call = (sql: string, ...args: unknown[]) => sqlite3.Database;

const BEGIN = /^\s*BEGIN\b/i;
/** What ends a transaction: COMMIT, END, or a ROLLBACK that is not `ROLLBACK TO` a savepoint. */
const COMMIT = /^\s*(COMMIT|END)\b/i;
const ROLLBACK = /^\s*ROLLBACK\b(?!\s+(TRANSACTION\s+)?TO\b)/i;
const WRITE = /^\s*(INSERT|UPDATE|DELETE|REPLACE)\b/i;
const RETURNING = /\bRETURNING\b/i;

/** The sqlite3 module as the service's DataSources take it; `writing` is the one for the writing connection. */
export type GuardedSqlite3 = typeof sqlite3 & { readonly writing: typeof sqlite3 };

/**
 * The sqlite3 module as TypeORM should see it:
 * - its `verbose()` is a no-op: TypeORM always calls it, and verbose mode
 *   captures a stack and `util.inspect`s the arguments of every call (a fifth
 *   of a list request's CPU, and SQL parameters copied into error stacks);
 * - its `Database` records which files it opened, and fails a commit (a
 *   COMMIT, or a write outside a transaction, which commits by itself) whose
 *   files are no longer at their paths, before TypeORM can report it as done
 *   (see {@link SqliteFileIdentity}). Writes inside a transaction are checked
 *   once, at its COMMIT;
 * - a write with RETURNING is run to its end before it is answered: `run`
 *   would answer after its first step, and its implicit transaction commits
 *   only at its last, so an acknowledged row would not yet be durable
 *   (decision 0009);
 * - its `writing` variant, for the one connection every write takes one
 *   statement at a time (SqliteWriteBatches), prepares each statement once and
 *   runs it again: one trip through libuv's thread pool per statement instead
 *   of two, and no finalize on the event loop (decision 0021). Never where
 *   statements run side by side: node-sqlite3 runs one statement's calls one
 *   after another, so they would wait for each other.
 */
export function guardedSqlite3(identity: SqliteFileIdentity): GuardedSqlite3 {
  const reading = driverOf(identity, false);
  return Object.assign(reading, { writing: driverOf(identity, true) });
}

function driverOf(identity: SqliteFileIdentity, reuseStatements: boolean): typeof sqlite3 {
  class GuardedDatabase extends sqlite3.Database {
    constructor(filename: string, mode: number, callback?: (error: Error | null) => void) {
      super(filename, mode, (error) => {
        if (!error) identity.record();
        callback?.(error);
      });
      // Statements are dispatched in order on a connection, so the one dispatched last says where it stands.
      let inTransaction = false;
      const track = (sql: string) => {
        if (BEGIN.test(sql)) inTransaction = true;
        else if (COMMIT.test(sql) || ROLLBACK.test(sql)) inTransaction = false;
      };
      const statements = reuseStatements ? new PreparedStatements(this) : undefined;
      const runOnce = this.run.bind(this) as Call;
      const runAgain = statements?.call('run') ?? runOnce;
      const all: Call = statements ? statements.call('all') : (this.all.bind(this) as Call);
      // `run` steps once. A write without RETURNING is done then, and may reuse its statement; a write with
      // RETURNING is not (its commit waits for its last step), so it is stepped to its end, as `all` does, and
      // answered as `run` answers; anything else runs once, as Database#run does.
      const run: Call = (sql, ...args) => {
        if (!WRITE.test(sql)) return runOnce(sql, ...args);
        return RETURNING.test(sql) ? all(sql, ...answeredAsRun(args)) : runAgain(sql, ...args);
      };
      Object.assign(this, {
        run: (sql: string, ...args: unknown[]) => {
          const commits = !inTransaction;
          track(sql);
          return run(sql, ...(commits ? checkedBeforeReply(args, identity) : args));
        },
        all: (sql: string, ...args: unknown[]) => {
          const commits = COMMIT.test(sql);
          track(sql);
          return all(sql, ...(commits ? checkedBeforeReply(args, identity) : args));
        },
      });
      if (statements) {
        const close = this.close.bind(this);
        // SQLite refuses to close a connection with statements still prepared.
        Object.assign(this, {
          close: (done?: (error: Error | null) => void) => statements.finalizeAll().then(() => close(done)),
        });
      }
    }
  }
  const driver = { ...sqlite3, Database: GuardedDatabase, verbose: () => driver } as typeof sqlite3;
  return driver;
}

/** The most statements kept prepared: fixed SQL is a handful; TypeORM's query builder may make more. */
const MAX_PREPARED = 64;

/** `run` and `all` as `Database` has them, on statements prepared once per SQL text. */
class PreparedStatements {
  private readonly prepared = new Map<string, sqlite3.Statement>();

  constructor(private readonly database: sqlite3.Database) {}

  call(method: 'run' | 'all'): Call {
    return (sql, ...args) => {
      const callback = (typeof args.at(-1) === 'function' ? args.pop() : () => undefined) as Callback;
      // As Database#run takes them: an array, values one by one, or none (TypeORM passes `undefined` then).
      const [first] = args;
      const parameters = first === undefined ? [] : args.length === 1 && Array.isArray(first) ? first : args;
      const ready = this.prepared.get(sql);
      if (ready) {
        ready[method](parameters, callback);
        return this.database;
      }
      const statement: sqlite3.Statement = this.database.prepare(sql, (error: Error | null) => {
        // A statement that does not prepare is reported as `run` and `all` report it, and not kept.
        if (error) return callback.call(statement, error);
        this.keep(sql, statement);
        statement[method](parameters, callback);
      });
      return this.database;
    };
  }

  finalizeAll(): Promise<void> {
    const statements = [...this.prepared.values()];
    this.prepared.clear();
    return Promise.all(statements.map((statement) => new Promise((done) => statement.finalize(done)))).then(
      () => undefined,
    );
  }

  private keep(sql: string, statement: sqlite3.Statement): void {
    this.prepared.set(sql, statement);
    if (this.prepared.size <= MAX_PREPARED) return;
    const [oldest, evicted] = this.prepared.entries().next().value!;
    this.prepared.delete(oldest);
    evicted.finalize();
  }
}

/**
 * `args` of `all`, whose callback is answered as `run`'s is: with the rows,
 * and `this.changes` (what TypeORM reads of a write) the number of rows the
 * write returned, one per row it changed.
 */
function answeredAsRun(args: unknown[]): unknown[] {
  const callback = args.at(-1);
  if (typeof callback !== 'function') return args;
  const answered = (error: Error | null, rows?: unknown[]) =>
    (callback as Callback).call({ lastID: undefined, changes: rows?.length ?? 0 }, error, rows);
  return [...args.slice(0, -1), answered];
}

/** `args` with its callback made to fail when a file was detached while the statement ran. */
function checkedBeforeReply(args: unknown[], identity: SqliteFileIdentity): unknown[] {
  const callback = args.at(-1);
  if (typeof callback !== 'function') return args;
  const checked: Callback = function (error, ...results) {
    (callback as Callback).call(this, error ?? identity.detachedError(), ...results);
  };
  return [...args.slice(0, -1), checked];
}
