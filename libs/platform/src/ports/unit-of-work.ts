/**
 * The one way an application service commits a change (docs/extending.md, "Writing across modules"): `run(work)`, where
 * `work` loads aggregates, calls their behaviour and saves them through their repositories, its own module's and
 * other modules' facades alike. When `work` resolves, what it saved is written in one transaction with the events
 * its aggregates recorded, all or nothing; a row saved at the version it was read that another writer changed meanwhile
 * undoes the unit and runs `work` again from its reads. No transaction is open while `work` runs: it may await
 * anything (an outbound call, a slow hash). Plain TypeScript, so the application layer may depend on it; `@app/events`
 * provides it.
 */
export abstract class UnitOfWork {
  /**
   * Runs `work` as one unit (or as part of the one already running): resolves with what `work` resolved to once the
   * unit committed, or rejects with what it threw (nothing written).
   */
  abstract run<T>(work: () => Promise<T>): Promise<T>;
}
