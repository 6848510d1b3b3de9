import 'reflect-metadata';
import { runEventsCommand } from '@app/events';
import { runCommandLine } from './command-line';
import { COMPOSITION } from './composition';

// `npm run events -- <command>`: the parked domain events of the database DATABASE_URL names, and their replays.
runCommandLine((argv, env, io) => runEventsCommand(argv, env, COMPOSITION, io));
