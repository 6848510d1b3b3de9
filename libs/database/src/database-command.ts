import type { INestApplicationContext } from '@nestjs/common';
import { AppError } from '@app/platform/errors';
import { ConfigError, type CommandOutput } from '@app/platform';
import { SqlClient } from './sql-client';

/** Exit statuses of a command: 0 done, 1 refused or failed, 2 not understood. */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

/** A command-line tool on the service's database (`npm run keys`, `npm run events`), as its library describes it. */
export interface DatabaseCommand<C> {
  usage: string;
  /** The command `argv` asks for, or `help`; throws a message for anything it cannot take. */
  parse(argv: readonly string[]): C | 'help';
  /** Does it, writing to `io`, in the application's modules (not started); returns the exit status. */
  run(command: C, sql: SqlClient, io: CommandOutput, application: INestApplicationContext): Promise<number>;
}

/**
 * The application's modules, created as the service creates them (their configuration read from the environment, the
 * database brought up to date by every module's migrations) and not started: nothing listens, no subscription runs.
 */
export type OpenApplication = () => Promise<INestApplicationContext>;

/**
 * Runs `command` on the database DATABASE_URL names, in the application `open` creates: usage errors exit 2 with the
 * usage on stderr, every refusal or failure is one line on stderr and 1.
 */
export async function runDatabaseCommand<C>(
  command: DatabaseCommand<C>,
  argv: readonly string[],
  io: CommandOutput,
  open: OpenApplication,
): Promise<number> {
  let parsed: C | 'help';
  try {
    parsed = command.parse(argv);
  } catch (error) {
    io.err(`${(error as Error).message}\n\n${command.usage}`);
    return EXIT.usage;
  }
  if (parsed === 'help') {
    io.out(command.usage);
    return EXIT.ok;
  }
  let application: INestApplicationContext | undefined;
  try {
    application = await open();
    return await command.run(parsed, application.get(SqlClient), io, application);
  } catch (error) {
    io.err(failureMessage(error));
    return EXIT.failed;
  } finally {
    await application?.close().catch(() => undefined);
  }
}

function failureMessage(error: unknown): string {
  if (error instanceof ConfigError) return `Invalid configuration: ${error.message}`;
  if (error instanceof AppError) return error.message;
  return `Cannot use the database: ${error instanceof Error ? error.message : String(error)}`;
}
