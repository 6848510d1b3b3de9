import * as sqlite3 from 'sqlite3';
import type { SqliteFileIdentity } from './sqlite-file-identity';

type Callback = (this: unknown, error: Error | null, ...results: unknown[]) => void;
type Call = (sql: string, ...args: unknown[]) => sqlite3.Database;

/**
 * The sqlite3 module as TypeORM should see it:
 * - its `verbose()` is a no-op: TypeORM always calls it, and verbose mode
 *   captures a stack and `util.inspect`s the arguments of every call (a fifth
 *   of a list request's CPU, and SQL parameters copied into error stacks);
 * - its `Database` records which file it opened, and fails a write (an
 *   INSERT, UPDATE or DELETE, or a COMMIT) whose file is no longer at its
 *   path, before TypeORM can report it as done (see {@link SqliteFileIdentity}).
 */
export function guardedSqlite3(identity: SqliteFileIdentity): typeof sqlite3 {
  class GuardedDatabase extends sqlite3.Database {
    constructor(filename: string, mode: number, callback?: (error: Error | null) => void) {
      super(filename, mode, (error) => {
        if (!error) identity.record();
        callback?.(error);
      });
      const run = this.run.bind(this) as Call;
      const all = this.all.bind(this) as Call;
      Object.assign(this, {
        run: (sql: string, ...args: unknown[]) => run(sql, ...checkedBeforeReply(args, identity)),
        all: (sql: string, ...args: unknown[]) =>
          all(sql, ...(/^\s*(COMMIT|END)\b/i.test(sql) ? checkedBeforeReply(args, identity) : args)),
      });
    }
  }
  const driver = { ...sqlite3, Database: GuardedDatabase, verbose: () => driver } as typeof sqlite3;
  return driver;
}

/** `args` with its callback made to fail when the file was detached while the statement ran. */
function checkedBeforeReply(args: unknown[], identity: SqliteFileIdentity): unknown[] {
  const callback = args.at(-1);
  if (typeof callback !== 'function') return args;
  const checked: Callback = function (error, ...results) {
    (callback as Callback).call(this, error ?? identity.detachedError(), ...results);
  };
  return [...args.slice(0, -1), checked];
}
