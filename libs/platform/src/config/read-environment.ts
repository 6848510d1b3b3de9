import { existsSync, readFileSync } from 'node:fs';
import { parseEnv } from 'node:util';
import { AppConfig } from './app-config';
import type { Environment } from './settings';

/**
 * The process environment over the `.env` file of the working directory, if there is one: a variable set in the
 * environment wins over the file.
 */
export function readEnvironment(): Environment {
  const fromFile = existsSync('.env') ? parseEnv(readFileSync('.env', 'utf8')) : {};
  return { ...fromFile, ...process.env };
}

export function loadConfig(env: Environment = readEnvironment()): AppConfig {
  return AppConfig.fromEnvironment(env);
}
