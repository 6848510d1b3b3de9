import type { File, Task } from '@vitest/runner';
import type { Reporter } from 'vitest/reporters';

export interface Counts {
  passed: number;
  failed: number;
  skipped: number;
}

/**
 * What the run did: each test counted by its state, and each suite or file
 * that failed without a failed test under it (its `beforeAll` threw, or it did
 * not load) counted as one failure, so that a broken suite never reads as
 * "0 failed".
 */
export function countResults(files: readonly File[]): Counts {
  const counts = { passed: 0, failed: 0, skipped: 0 };
  const visit = (task: Task): boolean => {
    if (task.type !== 'suite') {
      const state = task.result?.state;
      if (state === 'pass') counts.passed++;
      else if (state === 'fail') counts.failed++;
      else counts.skipped++;
      return state === 'fail';
    }
    const failedBelow = task.tasks.map(visit).some(Boolean);
    if (task.result?.state === 'fail' && !failedBelow) counts.failed++;
    return failedBelow || task.result?.state === 'fail';
  };
  files.forEach(visit);
  return counts;
}

/**
 * The suites skipped for a reason of the machine's (a suite says why in its name: `... (skipped: <why>)`), each once.
 */
export function skippedSuites(files: readonly File[]): string[] {
  const found = new Set<string>();
  const visit = (task: Task): void => {
    if (task.type !== 'suite') return;
    if (task.name.includes('(skipped: ')) found.add(task.name);
    else task.tasks.forEach(visit);
  };
  files.forEach(visit);
  return [...found];
}

/**
 * Ends the run with the suites skipped and why, and one plain line, `N passed, N failed, N skipped`, that any CI can
 * read, after vitest's own report.
 */
export default class SummaryReporter implements Reporter {
  onFinished(files: File[] = []): void {
    const { passed, failed, skipped } = countResults(files);
    for (const suite of skippedSuites(files)) console.log(`Skipped: ${suite}`);
    console.log(`\n${passed} passed, ${failed} failed, ${skipped} skipped`);
  }
}
