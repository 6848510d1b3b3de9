import type { CommandOutput } from '@app/platform';

/** A command-line tool run in this process: its exit status, and its stdout and stderr, a line per write. */
export async function captured(
  run: (io: CommandOutput) => Promise<number>,
): Promise<{ status: number; stdout: string; stderr: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const status = await run({ out: (text) => out.push(`${text}\n`), err: (text) => err.push(`${text}\n`) });
  return { status, stdout: out.join(''), stderr: err.join('') };
}
