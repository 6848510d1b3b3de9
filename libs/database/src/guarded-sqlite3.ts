import * as sqlite3 from 'sqlite3';
import type { SqliteFileGuard } from './sqlite-file-guard';
import { MAX_BATCH } from './sqlite-write-batches';

type Callback = (this: unknown, error: Error | null, ...results: unknown[]) => void;
type Call = (sql: string, ...args: unknown[]) => sqlite3.Database;

const BEGIN = /^\s*BEGIN\b/i;
/** A deferred BEGIN, as TypeORM's startTransaction() sends it. */
const DEFERRED_BEGIN = /^\s*BEGIN(\s+DEFERRED)?(\s+TRANSACTION)?\s*;?\s*$/i;
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
 *   captures a stack and `util.inspect`s the arguments of every call (CPU on
 *   every request, and SQL parameters copied into error stacks);
 * - its `Database` records which files it opened, and fails a commit (a
 *   COMMIT, or a write outside a transaction, which commits by itself) whose
 *   files are no longer at their paths, before TypeORM can report it as done
 *   (see {@link SqliteFileGuard}). Writes inside a transaction are checked
 *   once, at its COMMIT;
 * - a write with RETURNING is run to its end before it is answered: `run`
 *   would answer after its first step, and its implicit transaction commits
 *   only at its last, so an acknowledged row would not yet be durable
 *   (decision 0009);
 * - its `writing` variant, for the one connection every write takes
 *   (SqliteWriteBatches), begins its transactions IMMEDIATE (TypeORM's
 *   startTransaction() sends a deferred BEGIN), and prepares each statement once and runs it again: one
 *   trip through libuv's thread pool per statement instead of two, and no
 *   finalize on the event loop (decision 0021). A statement sent while its
 *   prepared copies are all busy gets a copy of its own, so that the writes
 *   of a batch sent together run side by side.
 */
export function guardedSqlite3(fileGuard: SqliteFileGuard): GuardedSqlite3 {
  const reading = driverOf(fileGuard, false);
  return Object.assign(reading, { writing: driverOf(fileGuard, true) });
}

function driverOf(fileGuard: SqliteFileGuard, reuseStatements: boolean): typeof sqlite3 {
  class GuardedDatabase extends sqlite3.Database {
    constructor(filename: string, mode: number, callback?: (error: Error | null) => void) {
      super(filename, mode, (error) => {
        if (!error) fileGuard.record();
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
      const exec = this.exec.bind(this) as Call;
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
          return run(sql, ...(commits ? checkedBeforeReply(args, fileGuard) : args));
        },
        all: (sql: string, ...args: unknown[]) => {
          const commits = COMMIT.test(sql);
          track(sql);
          // The writing connection's transactions take the file's write lock as they begin (waiting for another
          // process's through the busy timeout), not at their first write after a read, where SQLite would fail them
          // at once (SQLITE_BUSY) rather than wait.
          const begin = reuseStatements && DEFERRED_BEGIN.test(sql) ? 'BEGIN IMMEDIATE' : sql;
          return all(begin, ...(commits ? checkedBeforeReply(args, fileGuard) : args));
        },
        // Steering statements, a few in one call (`BEGIN IMMEDIATE; INSERT ...`), without literals: split on `;`.
        exec: (sql: string, ...args: unknown[]) => {
          const parts = sql.split(';');
          const commits = parts.some((part) => COMMIT.test(part));
          parts.forEach(track);
          return exec(sql, ...(commits ? checkedBeforeReply(args, fileGuard) : args));
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

/** The most SQL texts kept prepared: fixed SQL is a handful; TypeORM's query builder may make more. */
const MAX_PREPARED = 64;

/**
 * The most copies of one statement: as many as a batch sends at once (its
 * most jobs). A call given to a busy copy waits for the event loop between
 * it and the call before it; one given to a copy of its own waits only in
 * libuv's queue, and SQLite runs it as soon as the one before it is done.
 */
const COPIES_PER_STATEMENT = MAX_BATCH;

/**
 * A prepared statement, how many calls it has been given that have not
 * answered yet, and while it prepares, the calls waiting for it.
 */
type Copy = { statement: sqlite3.Statement; calls: number; preparing?: Array<(error: Error | null) => void> };

/**
 * `run` and `all` as `Database` has them, on statements prepared once per SQL
 * text and run again. node-sqlite3 runs one statement's calls one after
 * another, each started from the event loop when the one before has answered,
 * so each SQL text has up to {@link COPIES_PER_STATEMENT} copies: a call takes
 * an idle one, or prepares a new one while there are fewer.
 */
class PreparedStatements {
  private readonly prepared = new Map<string, Copy[]>();

  constructor(private readonly database: sqlite3.Database) {}

  call(method: 'run' | 'all'): Call {
    return (sql, ...args) => {
      const callback = (typeof args.at(-1) === 'function' ? args.pop() : () => undefined) as Callback;
      // As Database#run takes them: an array, values one by one, or none (TypeORM passes `undefined` then).
      const [first] = args;
      const parameters = first === undefined ? [] : args.length === 1 && Array.isArray(first) ? first : args;
      const copies = this.prepared.get(sql) ?? [];
      const idle = copies.find((copy) => copy.calls === 0);
      const copy = idle ?? (copies.length < COPIES_PER_STATEMENT ? this.prepare(sql, copies) : leastBusy(copies));
      copy.calls++;
      const finish = function (this: unknown, error: Error | null, ...results: unknown[]) {
        copy.calls--;
        callback.call(this, error, ...results);
      };
      const answer = function (this: unknown, error: Error | null, ...results: unknown[]) {
        if (!error) return finish.call(this, error, ...results);
        // A write that failed part-way (SQLITE_BUSY under another process's lock) stays active until it is reset, and
        // SQLite opens no savepoint on its connection meanwhile ("SQL statements in progress"): every transaction
        // would fail until the statement ran again. Reset before it is answered, and before another call takes it.
        copy.statement.reset(() => finish.call(this, error, ...results));
      };
      const send = () => copy.statement[method](parameters, answer);
      // A statement that did not prepare has nothing to reset (and node-sqlite3 would not answer a reset of it).
      if (copy.preparing) copy.preparing.push((error) => (error ? finish.call(copy.statement, error) : send()));
      else send();
      return this.database;
    };
  }

  finalizeAll(): Promise<void> {
    const copies = [...this.prepared.values()].flat();
    this.prepared.clear();
    return Promise.all(copies.map(({ statement }) => new Promise((done) => statement.finalize(done)))).then(
      () => undefined,
    );
  }

  /**
   * A new copy of `sql`'s statement, kept once it has prepared. Calls given to
   * it meanwhile wait here, not in node-sqlite3's queue, which drops them
   * unanswered when the preparation fails: here each is answered with the
   * error, as `run` and `all` answer a statement that does not prepare.
   */
  private prepare(sql: string, copies: Copy[]): Copy {
    const copy: Copy = {
      statement: this.database.prepare(sql, (error: Error | null) => {
        const waiting = copy.preparing ?? [];
        copy.preparing = undefined;
        if (error) this.forget(sql, copy);
        for (const next of waiting) next(error);
      }),
      calls: 0,
      preparing: [],
    };
    if (copies.length === 0) {
      this.prepared.set(sql, copies);
      if (this.prepared.size > MAX_PREPARED) this.evictOldest(sql);
    }
    copies.push(copy);
    return copy;
  }

  private forget(sql: string, copy: Copy): void {
    const copies = this.prepared.get(sql);
    const index = copies?.indexOf(copy) ?? -1;
    if (index < 0) return;
    copies!.splice(index, 1);
    if (copies!.length === 0) this.prepared.delete(sql);
  }

  /**
   * The SQL text prepared longest ago, other than `keep` and one still
   * preparing: node-sqlite3 finalizes each of its copies once the calls
   * already given to it have run.
   */
  private evictOldest(keep: string): void {
    for (const [sql, copies] of this.prepared) {
      if (sql === keep || copies.some((copy) => copy.preparing)) continue;
      this.prepared.delete(sql);
      for (const { statement } of copies) statement.finalize();
      return;
    }
  }
}

function leastBusy(copies: Copy[]): Copy {
  return copies.reduce((least, copy) => (copy.calls < least.calls ? copy : least));
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
function checkedBeforeReply(args: unknown[], fileGuard: SqliteFileGuard): unknown[] {
  const callback = args.at(-1);
  if (typeof callback !== 'function') return args;
  const checked: Callback = function (error, ...results) {
    (callback as Callback).call(this, error ?? fileGuard.detachedError(), ...results);
  };
  return [...args.slice(0, -1), checked];
}
