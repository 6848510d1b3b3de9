import { parseArgs } from 'node:util';
import { EXIT, runDatabaseCommand, type OpenApplication, type SqlClient } from '@app/database';
import { textTable, type CommandOutput } from '@app/platform';
import { outboxStatements, type StoredEvent } from '../outbox-statements';

/** A subscription seen this recently is a running instance's: every instance marks its own once a minute. */
const RUNNING_WITHIN_MS = 2 * 60_000;

export const EVENTS_USAGE = `Usage: npm run events -- <command>

Commands:
  parked [--json]                         List the events parked after every attempt failed, oldest first.
  replay <event-id> [--subscriber <name>] Ask for a parked event to be handled again, by every subscriber that parked
                                          it or by the one named: a running instance takes it at its next poll
                                          (EVENTS_POLL_MS), logs "parked event replayed", and it leaves the list.
  subscriptions [--json]                  List every subscription's progress, and when an instance that has it last
                                          said so (a module removed from the code leaves its row behind).
  forget <subscriber> [--force]           Remove a subscription's progress and its parked events, once its module is
                                          gone for good: the prune no longer waits for it. One a running instance
                                          still has (seen in the last ${RUNNING_WITHIN_MS / 60_000} minutes) is kept unless --force: that
                                          instance would make its row again where it stands.

The database is the one DATABASE_URL names (the environment, or .env), as for the service.`;

type Command =
  | { command: 'parked'; json: boolean }
  | { command: 'subscriptions'; json: boolean }
  | { command: 'replay'; eventId: string; subscriber: string }
  | { command: 'forget'; subscriber: string; force: boolean };

interface SubscriptionRow {
  subscriber: string;
  event: string;
  afterTransaction: string;
  afterPosition: string;
  attempts: number;
  seenAt: string;
}

interface Parked extends StoredEvent {
  subscriber: string;
  attempts: number;
  error: string;
  parkedAt: string;
  replayRequestedAt: string | null;
}

/** `npm run events`: the parked events of the service's database, and replays of them. Returns the exit status. */
export function runEventsCommand(argv: readonly string[], io: CommandOutput, open: OpenApplication): Promise<number> {
  return runDatabaseCommand({ usage: EVENTS_USAGE, parse: parseCommand, run }, argv, io, open);
}

async function run(parsed: Command, sql: SqlClient, io: CommandOutput): Promise<number> {
  const statements = outboxStatements(sql.dialect, sql.isPostgres);
  if (parsed.command === 'parked') {
    const parked = await sql.read<Parked>(statements.parked);
    io.out(parsed.json ? JSON.stringify(parked.map(listed), null, 2) : table(parked));
    return EXIT.ok;
  }
  if (parsed.command === 'subscriptions') {
    const rows = await sql.read<SubscriptionRow>(statements.subscriptions);
    io.out(parsed.json ? JSON.stringify(rows.map(subscriptionListed), null, 2) : subscriptionTable(rows));
    return EXIT.ok;
  }
  if (parsed.command === 'forget') {
    const { subscriber, force } = parsed;
    const seen = (await sql.read<SubscriptionRow>(statements.subscriptions)).find(
      (row) => row.subscriber === subscriber,
    );
    const agoMs = seen === undefined ? Infinity : Date.now() - Number(seen.seenAt);
    if (!force && agoMs < RUNNING_WITHIN_MS) {
      io.err(
        `${subscriber} was seen by a running instance ${Math.max(0, Math.round(agoMs / 1000))} s ago: it would make ` +
          'its row again where it stands. Stop the instances that have it (or start them without its module) first, ' +
          'or give --force.',
      );
      return EXIT.failed;
    }
    const parked = await sql.transaction(async () => {
      const forgotten = await sql.write(statements.forget, [subscriber]);
      return forgotten.changed === 0 ? undefined : (await sql.write(statements.forgetParked, [subscriber])).changed;
    });
    if (parked === undefined) {
      io.err(`No subscription is named ${subscriber} (npm run events -- subscriptions lists them).`);
      return EXIT.failed;
    }
    io.out(`Forgot ${subscriber}: its progress and ${parked} parked event${parked === 1 ? '' : 's'}.`);
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
    options: {
      json: { type: 'boolean' },
      subscriber: { type: 'string' },
      force: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [command, ...rest] = positionals;
  if (values.help || command === 'help') return 'help';
  switch (command) {
    case 'parked':
    case 'subscriptions':
      if (rest.length > 0 || values.subscriber !== undefined || values.force !== undefined)
        throw new Error(`${command} takes only --json`);
      return { command, json: values.json === true };
    case 'forget':
      if (rest.length !== 1 || values.json !== undefined || values.subscriber !== undefined)
        throw new Error('forget takes a subscriber (and --force)');
      return { command, subscriber: rest[0], force: values.force === true };
    case 'replay':
      if (rest.length !== 1 || values.json !== undefined || values.force !== undefined)
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

function subscriptionListed(row: SubscriptionRow) {
  return {
    subscriber: row.subscriber,
    event: row.event,
    after: `${row.afterTransaction}:${row.afterPosition}`,
    attempts: Number(row.attempts),
    lastSeen: iso(row.seenAt),
  };
}

function subscriptionTable(rows: readonly SubscriptionRow[]): string {
  if (rows.length === 0) return 'No subscription.';
  return textTable([
    ['SUBSCRIBER', 'EVENT', 'AFTER', 'ATTEMPTS', 'LAST SEEN'],
    ...rows.map((row) => Object.values(subscriptionListed(row)).map(String)),
  ]);
}
