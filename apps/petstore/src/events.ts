import 'reflect-metadata';
import { runEventsCommand } from '@app/events';
import { runCommandLine } from './command-line';
import { openApplication } from './open-application';

// `npm run events -- <command>`: the parked domain events of the database DATABASE_URL names, and their replays.
runCommandLine((argv, io) => runEventsCommand(argv, io, openApplication));
