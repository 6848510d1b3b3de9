/**
 * The port an application service uses to make several writes one transaction, its own repositories' and other modules'
 * facades' alike: every read and write made inside `run` joins it. Plain TypeScript, so the application layer may
 * depend on it; the database provides it (SqlClient's transaction: serializable, all or nothing, `work` run once on
 * SQLite, and on PostgreSQL again after a serialization failure, within DATABASE_TIMEOUT_MS). An example: docs/extending.md, "Writing across modules".
 */
export abstract class UnitOfWork {
  /** Runs `work` in one transaction (or in the one already open): committed if it resolves, undone if it throws. */
  abstract run<T>(work: () => Promise<T>): Promise<T>;
}
