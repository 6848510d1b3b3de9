import type { File, Task } from '@vitest/runner';
import { describe, expect, it } from 'vitest';
import { countResults, skippedSuites } from './summary-reporter';

type State = 'pass' | 'fail' | 'skip';
const test = (state: State): Task => ({ type: 'test', result: { state } }) as Task;
const suite = (state: State | undefined, ...tasks: Task[]): Task =>
  ({ type: 'suite', tasks, result: state ? { state } : undefined }) as Task;
const file = (state: State | undefined, ...tasks: Task[]) => suite(state, ...tasks) as File;

describe('the summary line', () => {
  it('counts tests by their state', () => {
    expect(countResults([file('pass', test('pass'), test('pass'), suite('pass', test('skip')))])).toEqual({
      passed: 2,
      failed: 0,
      skipped: 1,
    });
  });

  it('counts a suite whose beforeAll threw, its tests skipped, as a failure', () => {
    expect(countResults([file('fail', suite('fail', test('skip'), test('skip'))), file('pass', test('pass'))])).toEqual(
      { passed: 1, failed: 1, skipped: 2 },
    );
  });

  it('counts a file that did not load as a failure, and a failed test once, not again for its suite', () => {
    expect(countResults([file('fail'), file('fail', suite('fail', test('fail'), test('pass')))])).toEqual({
      passed: 1,
      failed: 2,
      skipped: 0,
    });
  });
});

describe('the skipped suites', () => {
  const named = (name: string, ...tasks: Task[]): Task => ({ ...suite(undefined, ...tasks), name }) as Task;

  it('names each suite skipped for a reason, once, and none inside it or skipped by a filter', () => {
    const files = [
      named('a.e2e-spec.ts', named('a full disk (skipped: mounting a tmpfs needs root)', named('inner (skipped: x)'))),
      named(
        'b.e2e-spec.ts',
        named('on sqlite', test('skip')),
        named('a full disk (skipped: mounting a tmpfs needs root)'),
      ),
    ] as File[];
    expect(skippedSuites(files)).toEqual(['a full disk (skipped: mounting a tmpfs needs root)']);
  });
});
