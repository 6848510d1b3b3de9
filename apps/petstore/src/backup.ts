import { readEnvironment, runBackupCommand } from '@app/platform';

// `npm run backup -- <file>`: a consistent copy of the SQLite database DATABASE_URL names, while the service serves.
runBackupCommand(process.argv.slice(2), readEnvironment(), {
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
}).then(
  (status) => (process.exitCode = status),
  (error: unknown) => {
    process.stderr.write(`${String(error)}\n`);
    process.exitCode = 1;
  },
);
