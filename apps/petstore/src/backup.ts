import { runBackupCommand } from '@app/database';
import { runCommandLine } from './command-line';

// `npm run backup -- <file>`: a consistent copy of the SQLite database DATABASE_URL names, while the service serves.
runCommandLine(runBackupCommand);
