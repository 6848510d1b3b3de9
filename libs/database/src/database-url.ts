import { accessSync, constants, mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { ConfigError } from '@app/platform';

export type DatabaseLocation =
  { readonly type: 'sqlite'; readonly path: string } | { readonly type: 'postgres'; readonly url: string };

/**
 * `sqlite:<path>` (relative to the working directory, or absolute; its folder
 * is created) or `postgres://…` / `postgresql://…`. Anything else stops startup.
 */
export function parseDatabaseUrl(value: string): DatabaseLocation {
  if (value.startsWith('sqlite:')) {
    const path = value.slice('sqlite:'.length).replace(/^\/\/(?=[./])/, '');
    if (path === '') throw new ConfigError('DATABASE_URL', 'must name a file after sqlite: (got "sqlite:")');
    return { type: 'sqlite', path: usableSqlitePath(resolve(path)) };
  }
  if (/^postgres(ql)?:\/\//.test(value)) {
    let url: URL | undefined;
    try {
      url = new URL(value);
    } catch {
      // reported below
    }
    if (!url?.hostname) throw new ConfigError('DATABASE_URL', 'is not a valid postgres://user@host:port/database URL');
    // Without one, PostgreSQL connects to the database named as the user (often the maintenance database, postgres).
    if (url.pathname.replace(/^\//, '') === '') {
      throw new ConfigError('DATABASE_URL', 'must name the database: postgres://user@host:port/database');
    }
    return { type: 'postgres', url: value };
  }
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(value)?.[1] ?? value;
  throw new ConfigError('DATABASE_URL', `has an unsupported scheme "${scheme}"; use sqlite:<path> or postgres://…`);
}

function usableSqlitePath(path: string): string {
  const folder = dirname(path);
  try {
    createFolder(folder);
    accessSync(folder, constants.W_OK);
  } catch (error) {
    throw new ConfigError(
      'DATABASE_URL',
      `points into a folder that cannot be created or written: ${folder} (${(error as Error).message})`,
    );
  }
  const existing = statSync(path, { throwIfNoEntry: false });
  if (existing && !existing.isFile()) {
    throw new ConfigError('DATABASE_URL', `points at ${path}, which is not a file`);
  }
  return path;
}

/**
 * `mkdir -p`, one level at a time: `mkdirSync(..., { recursive: true })` spins
 * forever under some virtual file systems (seen with /proc).
 */
function createFolder(folder: string): void {
  const stat = statSync(folder, { throwIfNoEntry: false });
  if (stat?.isDirectory()) return;
  if (stat) throw new Error(`${folder} is not a folder`);
  const parent = dirname(folder);
  if (parent === folder) throw new Error(`${folder} does not exist`);
  createFolder(parent);
  mkdirSync(folder);
}
