import type { File, Task } from '@vitest/runner';
import type { Reporter } from 'vitest/reporters';

/**
 * Ends the run with one plain line, `N passed, N failed, N skipped`, that any
 * CI can read, after vitest's own report.
 */
export default class SummaryReporter implements Reporter {
  onFinished(files: File[] = []): void {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    const visit = (task: Task) => {
      if (task.type === 'suite') task.tasks.forEach(visit);
      else if (task.result?.state === 'pass') counts.passed++;
      else if (task.result?.state === 'fail') counts.failed++;
      else counts.skipped++;
    };
    files.forEach(visit);
    const failedFiles = files.filter((file) => file.result?.state === 'fail' && file.tasks.length === 0).length;
    console.log(`\n${counts.passed} passed, ${counts.failed + failedFiles} failed, ${counts.skipped} skipped`);
  }
}
