import 'reflect-metadata';
import { runKeysCommand } from '@app/auth';
import { runCommandLine } from './command-line';
import { openApplication } from './open-application';

// `npm run keys -- <command>`: manages the API keys of the database DATABASE_URL names.
runCommandLine((argv, io) => runKeysCommand(argv, io, openApplication));
