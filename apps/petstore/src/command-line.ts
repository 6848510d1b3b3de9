import { existsSync } from 'node:fs';
import type { CommandOutput } from '@app/platform';

/** A command-line tool of the service: its arguments in, its exit status out. */
export type Command = (argv: readonly string[], io: CommandOutput) => Promise<number>;

/**
 * Runs `command` as this process's whole job (`npm run keys`, `npm run backup`): the arguments after the script, the
 * environment (over the `.env` file of the working directory, if there is one: a variable set in the environment
 * wins), lines on stdout and stderr, and its status as the exit code; an error it did not expect is one line on stderr
 * and status 1.
 */
export function runCommandLine(command: Command): void {
  if (existsSync('.env')) process.loadEnvFile('.env');
  command(process.argv.slice(2), {
    out: (text) => process.stdout.write(`${text}\n`),
    err: (text) => process.stderr.write(`${text}\n`),
  }).then(
    (status) => (process.exitCode = status),
    (error: unknown) => {
      process.stderr.write(`${String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
