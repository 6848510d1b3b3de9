import 'reflect-metadata';
import { runKeysCommand } from '@app/auth';
import { readEnvironment } from '@app/platform';
import { FEATURES } from './features';

// `npm run keys -- <command>`: manages the API keys of the database DATABASE_URL names.
runKeysCommand(process.argv.slice(2), readEnvironment(), FEATURES, {
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
}).then(
  (status) => (process.exitCode = status),
  (error: unknown) => {
    process.stderr.write(`${String(error)}\n`);
    process.exitCode = 1;
  },
);
