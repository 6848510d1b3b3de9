import { parseArgs } from 'node:util';
import { EXIT, runDatabaseCommand, type SqlClient } from '@app/database';
import { textTable, type CommandOutput, type Environment, type Part } from '@app/platform';
import { outboxStatements, type StoredEvent } from '../outbox-statements';

export const EVENTS_USAGE = `Usage: npm run events -- <command>

Commands:
  parked [--json]                         List the events parked after every attempt failed, oldest first.
  replay <event-id> [--subscriber <name>] Ask for a parked event to be handled again, by every subscriber that parked
                                          it or by the one named: a running instance takes it at its next poll
                                          (EVENTS_POLL_MS), logs "parked event replayed", and it leaves the list.

The database is the one DATABASE_URL names (the environment, or .env), as for the service.`;

type Command = { command: 'parked'; json: boolean } | { command: 'replay'; eventId: string; subscriber: string };

interface Parked extends StoredEvent {
  subscriber: string;
  attempts: number;
  error: string;
  parkedAt: string;
  replayRequestedAt: string | null;
}

/** `npm run events`: the parked events of the service's database, and replays of them. Returns the exit status. */
export function runEventsCommand(
  argv: readonly string[],
  env: Environment,
  parts: readonly Part[],
  io: CommandOutput,
): Promise<number> {
  return runDatabaseCommand({ usage: EVENTS_USAGE, parse: parseCommand, run }, argv, env, parts, io);
}

async function run(parsed: Command, sql: SqlClient, io: CommandOutput): Promise<number> {
  const statements = outboxStatements(sql.dialect, sql.isPostgres);
  if (parsed.command === 'parked') {
    const parked = await sql.read<Parked>(statements.parked);
    io.out(parsed.json ? JSON.stringify(parked.map(listed), null, 2) : table(parked));
    return EXIT.ok;
  }
  const { eventId, subscriber } = parsed;
  const asked = await sql.write(statements.requestReplay, [eventId, subscriber, Date.now()]);
  if (asked.changed === 0) {
    io.err(`No parked event has the id ${eventId}${subscriber ? ` for ${subscriber}` : ''}.`);
    return EXIT.failed;
  }
  io.out(
    `Replay of ${eventId} asked (${asked.changed} subscriber${asked.changed === 1 ? '' : 's'}): a running ` +
      'instance handles it within EVENTS_POLL_MS.',
  );
  return EXIT.ok;
}

function parseCommand(argv: readonly string[]): Command | 'help' {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: { json: { type: 'boolean' }, subscriber: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  const [command, ...rest] = positionals;
  if (values.help || command === 'help') return 'help';
  switch (command) {
    case 'parked':
      if (rest.length > 0 || values.subscriber !== undefined) throw new Error('parked takes only --json');
      return { command, json: values.json === true };
    case 'replay':
      if (rest.length !== 1 || values.json !== undefined)
        throw new Error('replay takes an event id (and --subscriber)');
      return { command, eventId: rest[0], subscriber: values.subscriber ?? '' };
    case undefined:
      throw new Error('a command is needed');
    default:
      throw new Error(`unknown command "${command}"`);
  }
}

function iso(milliseconds: string | null): string {
  return milliseconds === null ? '-' : new Date(Number(milliseconds)).toISOString();
}

function listed(parked: Parked) {
  return {
    eventId: parked.id,
    name: parked.name,
    version: parked.version,
    aggregateId: parked.aggregateId,
    occurredAt: iso(parked.occurredAt),
    subscriber: parked.subscriber,
    attempts: parked.attempts,
    error: parked.error,
    parkedAt: iso(parked.parkedAt),
    replayRequestedAt: iso(parked.replayRequestedAt),
  };
}

function table(parked: readonly Parked[]): string {
  if (parked.length === 0) return 'No parked event.';
  return textTable([
    ['PARKED AT', 'SUBSCRIBER', 'EVENT ID', 'NAME', 'AGGREGATE', 'ATTEMPTS', 'REPLAY ASKED', 'ERROR'],
    ...parked.map((event) => [
      iso(event.parkedAt),
      event.subscriber,
      event.id,
      event.name,
      event.aggregateId,
      String(event.attempts),
      iso(event.replayRequestedAt),
      event.error,
    ]),
  ]);
}
