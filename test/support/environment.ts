/** The last run of {@link inEnvironment}: the next waits for it. */
let previous: Promise<unknown> = Promise.resolve();

/**
 * Runs `work` with `env` as the whole process environment, then puts the process's own back: Nest's configuration
 * reads each module's settings from `process.env` as an application is created, so an application (or a tool) a
 * test creates in this process reads exactly the variables the test gives it. One run at a time.
 */
export function inEnvironment<T>(
  env: Readonly<Record<string, string | undefined>>,
  work: () => Promise<T>,
): Promise<T> {
  const run = previous.then(async () => {
    const own = process.env;
    process.env = Object.fromEntries(
      Object.entries(env).filter(([, value]) => value !== undefined),
    ) as NodeJS.ProcessEnv;
    try {
      return await work();
    } finally {
      process.env = own;
    }
  });
  previous = run.catch(() => undefined);
  return run;
}
