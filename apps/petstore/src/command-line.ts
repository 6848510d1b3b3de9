import { readEnvironment, type CommandOutput, type Environment } from '@app/platform';

/** A command-line tool of the service: its arguments and environment in, its exit status out. */
export type Command = (argv: readonly string[], env: Environment, io: CommandOutput) => Promise<number>;

/**
 * Runs `command` as this process's whole job (`npm run keys`, `npm run backup`): the arguments after the script,
 * the environment (and `.env`), lines on stdout and stderr, and its status as the exit code; an error it did not
 * expect is one line on stderr and status 1.
 */
export function runCommandLine(command: Command): void {
  command(process.argv.slice(2), readEnvironment(), {
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
