import { parseArgs } from 'node:util';
import type { INestApplicationContext } from '@nestjs/common';
import { EXIT, runDatabaseCommand, type OpenApplication, type SqlClient } from '@app/database';
import { textTable, type CommandOutput } from '@app/platform';
import { ApiKeysService } from '../application/api-keys.service';
import type { ApiKey } from '../domain/api-key';
import { EVERY_SCOPE, scopePatterns } from '../domain/scope';
import { RouteScopes } from '../http/route-scopes';
import { TypeOrmApiKeyRepository } from '../infrastructure/typeorm-api-key.repository';

export const KEYS_USAGE = `Usage: npm run keys -- <command>

Commands:
  create --name <name> [--scopes <scopes>]
                         Issue a key for <name> and print it (it is shown only this once). It grants every scope
                         unless --scopes names some.
  set-scopes <name> --scopes <scopes>
                         Make the key named <name> grant <scopes> instead: narrowed or widened on every instance
                         within API_KEY_CACHE_SECONDS.
  list [--json]          List the keys: name, prefix, scopes, created, revoked, last used.
  revoke <name>          Revoke the key named <name>: every instance refuses it within API_KEY_CACHE_SECONDS.

Scopes, comma-separated: <area>:read, <area>:write, <area>:*, *:read, *:write or *; the areas are the service's
modules (pets, store, ...), and a scope that no operation needs is refused, naming those there are.

The database is the one DATABASE_URL names (the environment, or .env), as for the service.`;

/**
 * `npm run keys`: issue, list and revoke API keys in the service's database.
 * Returns the exit status; every refusal is one line on stderr.
 */
export function runKeysCommand(argv: readonly string[], io: CommandOutput, open: OpenApplication): Promise<number> {
  return runDatabaseCommand({ usage: KEYS_USAGE, parse: parseCommand, run }, argv, io, open);
}

async function run(
  parsed: Command,
  sql: SqlClient,
  io: CommandOutput,
  application: INestApplicationContext,
): Promise<number> {
  const keys = new ApiKeysService(new TypeOrmApiKeyRepository(sql));
  // `--scopes` as given, checked against the scopes the service's routes need (its modules are created here).
  const scopesOf = (given: string) =>
    scopePatterns(
      given.split(',').map((scope) => scope.trim()),
      application.get(RouteScopes).all(),
    );
  switch (parsed.command) {
    case 'create': {
      const scopes = parsed.scopes === undefined ? EVERY_SCOPE : scopesOf(parsed.scopes);
      const { key, apiKey } = await keys.create(parsed.name, scopes);
      io.out(key);
      io.err(
        `Created key "${apiKey.name}" (${apiKey.prefix}), granting ${apiKey.scopes.join(' ')}. ` +
          'Store it now: it is not shown again.',
      );
      break;
    }
    case 'set-scopes': {
      const { apiKey, before } = await keys.setScopes(parsed.name, scopesOf(parsed.scopes));
      io.out(`Key "${apiKey.name}" (${apiKey.prefix}) granted ${before.join(' ')}; now ${apiKey.scopes.join(' ')}.`);
      break;
    }
    case 'list': {
      const all = await keys.list();
      io.out(parsed.json ? JSON.stringify(all.map(listed), null, 2) : table(all));
      break;
    }
    case 'revoke': {
      const { apiKey, alreadyRevoked } = await keys.revoke(parsed.name);
      io.out(
        alreadyRevoked
          ? `Key "${apiKey.name}" was already revoked at ${iso(apiKey.revokedAt)}.`
          : `Revoked key "${apiKey.name}" (${apiKey.prefix}).`,
      );
      break;
    }
  }
  return EXIT.ok;
}

type Command =
  | { command: 'create'; name: string; scopes?: string }
  | { command: 'set-scopes'; name: string; scopes: string }
  | { command: 'revoke'; name: string }
  | { command: 'list'; json: boolean };

function parseCommand(argv: readonly string[]): Command | 'help' {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      scopes: { type: 'string' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [command, ...rest] = positionals;
  if (values.help || command === 'help') return 'help';
  const noMore = (what: string, extra: unknown[]) => {
    if (extra.some((value) => value !== undefined)) throw new Error(`${what} takes no other arguments`);
  };
  switch (command) {
    case 'create':
      noMore('create', [...rest, values.json]);
      if (values.name === undefined) throw new Error('create needs --name <name>');
      return { command, name: values.name, scopes: values.scopes };
    case 'set-scopes':
      noMore('set-scopes', [...rest.slice(1), values.name, values.json]);
      if (rest[0] === undefined) throw new Error('set-scopes needs the name of a key');
      if (values.scopes === undefined) throw new Error('set-scopes needs --scopes <scopes>');
      return { command, name: rest[0], scopes: values.scopes };
    case 'list':
      noMore('list', [...rest, values.name, values.scopes]);
      return { command, json: values.json === true };
    case 'revoke':
      noMore('revoke', [...rest.slice(1), values.name, values.scopes, values.json]);
      if (rest[0] === undefined) throw new Error('revoke needs the name of a key');
      return { command, name: rest[0] };
    case undefined:
      throw new Error('a command is needed');
    default:
      throw new Error(`unknown command "${command}"`);
  }
}

function listed(key: ApiKey) {
  return {
    name: key.name,
    prefix: key.prefix,
    scopes: key.scopes,
    createdAt: key.createdAt.toISOString(),
    revokedAt: key.revokedAt?.toISOString() ?? null,
    lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
  };
}

function iso(date: Date | undefined): string {
  return date ? date.toISOString().replace(/\.\d{3}Z$/, 'Z') : '-';
}

function table(keys: readonly ApiKey[]): string {
  if (keys.length === 0) return 'No keys. Create one with: npm run keys -- create --name <name>';
  const rows = [
    ['NAME', 'PREFIX', 'SCOPES', 'CREATED', 'REVOKED', 'LAST USED'],
    ...keys.map((key) => [
      key.name,
      key.prefix,
      key.scopes.join(' '),
      iso(key.createdAt),
      iso(key.revokedAt),
      iso(key.lastUsedAt),
    ]),
  ];
  return textTable(rows);
}
