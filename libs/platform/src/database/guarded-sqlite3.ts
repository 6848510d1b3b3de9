import * as sqlite3 from 'sqlite3';
import type { SqliteFileIdentity } from './sqlite-file-identity';

type Callback = (this: unknown, error: Error | null, ...results: unknown[]) => void;
type Call = (sql: string, ...args: unknown[]) => sqlite3.Database;

const BEGIN = /^\s*BEGIN\b/i;
/** What ends a transaction: COMMIT, END, or a ROLLBACK that is not `ROLLBACK TO` a savepoint. */
const COMMIT = /^\s*(COMMIT|END)\b/i;
const ROLLBACK = /^\s*ROLLBACK\b(?!\s+(TRANSACTION\s+)?TO\b)/i;

/**
 * The sqlite3 module as TypeORM should see it:
 * - its `verbose()` is a no-op: TypeORM always calls it, and verbose mode
 *   captures a stack and `util.inspect`s the arguments of every call (a fifth
 *   of a list request's CPU, and SQL parameters copied into error stacks);
 * - its `Database` records which files it opened, and fails a commit (a
 *   COMMIT, or a write outside a transaction, which commits by itself) whose
 *   files are no longer at their paths, before TypeORM can report it as done
 *   (see {@link SqliteFileIdentity}). Writes inside a transaction are checked
 *   once, at its COMMIT.
 */
export function guardedSqlite3(identity: SqliteFileIdentity): typeof sqlite3 {
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
      const run = this.run.bind(this) as Call;
      const all = this.all.bind(this) as Call;
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
    }
  }
  const driver = { ...sqlite3, Database: GuardedDatabase, verbose: () => driver } as typeof sqlite3;
  return driver;
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
