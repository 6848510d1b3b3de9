import { readFileSync } from 'node:fs';

/**
 * This process's soft limit on open files (`ulimit -n`), where the system says
 * (Linux's /proc/self/limits); `undefined` elsewhere. Every connection holds
 * one, and so do the database files and the log.
 */
export function openFileLimit(): number | undefined {
  try {
    const line = /^Max open files\s+(\d+|unlimited)/m.exec(readFileSync('/proc/self/limits', 'utf8'))?.[1];
    return line === undefined || line === 'unlimited' ? undefined : Number(line);
  } catch {
    return undefined;
  }
}
