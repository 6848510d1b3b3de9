import 'reflect-metadata';
import { runKeysCommand } from '@app/auth';
import { runCommandLine } from './command-line';
import { COMPOSITION } from './composition';

// `npm run keys -- <command>`: manages the API keys of the database DATABASE_URL names.
runCommandLine((argv, env, io) => runKeysCommand(argv, env, COMPOSITION, io));
