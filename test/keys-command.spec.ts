import { runKeysCommand } from '@app/auth';
import { describe, expect, it } from 'vitest';
import { openApplication } from '../apps/petstore/src/open-application';
import { captured } from './support/command-output';
import { inEnvironment } from './support/environment';

/**
 * `npm run keys` refusals that need no database, run in this process: what the
 * built CLI prints and returns (test/slow/api-keys.e2e-spec.ts runs the built
 * CLI itself against real databases).
 */
function keys(args: string[], env: Record<string, string> = {}) {
  return captured((io) => inEnvironment(env, () => runKeysCommand(args, io, openApplication)));
}

describe('npm run keys refusals that need no database', () => {
  it.each([
    [['create'], 'create needs --name <name>'],
    [['revoke'], 'revoke needs the name of a key'],
    [['set-scopes'], 'set-scopes needs the name of a key'],
    [['set-scopes', 'dashboard'], 'set-scopes needs --scopes <scopes>'],
    [['list', '--scopes', 'pets:read'], 'list takes no other arguments'],
    [['frob'], 'unknown command "frob"'],
    [[], 'a command is needed'],
    [['list', 'extra'], 'list takes no other arguments'],
    [['list', '--colour'], "Unknown option '--colour'"],
  ])('%j: usage and exit status 2', async (args, message) => {
    const result = await keys(args, { DATABASE_URL: 'sqlite:/nonexistent/never-opened.sqlite' });
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(new RegExp(`^[^\\n]*${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    expect(result.stderr).toContain('\n\nUsage: npm run keys -- <command>');
  });

  it('names a bad DATABASE_URL', async () => {
    expect(await keys(['list'], { DATABASE_URL: 'mysql://db/keys' })).toEqual({
      status: 1,
      stdout: '',
      stderr:
        'Invalid configuration: DATABASE_URL has an unsupported scheme "mysql"; use sqlite:<path> or postgres://…\n',
    });
  });

  it('says when the database cannot be reached', async () => {
    expect(await keys(['list'], { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/keys' })).toEqual({
      status: 1,
      stdout: '',
      stderr: 'Cannot use the database: connect ECONNREFUSED 127.0.0.1:1\n',
    });
  });

  it('prints its usage when asked', async () => {
    const result = await keys(['--help']);
    expect(result.status).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(/^Usage: npm run keys -- <command>\n/);
  });
});
