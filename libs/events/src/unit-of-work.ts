import { Injectable } from '@nestjs/common';
import { PendingUnit, SqlClient } from '@app/database';
import { UnitOfWork, type DomainEvent } from '@app/platform/ports';
import { Outbox } from './outbox';
import { PENDING_ID } from './outbox-statements';

/**
 * The one way a module's change commits (docs/extending.md, "Writing across modules"): `work` loads aggregates, calls
 * their behaviour and saves them through their repositories, which persist() their rows with the unit; when `work`
 * resolves, the unit writes those rows and the events the aggregates recorded (to the outbox) in one transaction.
 * While `work` runs no transaction is open: its reads see what is committed, and it may await anything.
 *
 * A row saved at the version it was read has changed since (another writer committed first): the unit is undone and
 * `work` runs again from its reads, where its aggregates' rules decide anew (ConcurrentChange; within
 * DATABASE_TIMEOUT_MS). So `work` makes and loads its aggregates itself, and keeps to what runs again harmlessly.
 *
 * How the unit is written is each database's own: on SQLite one job of the group commit (SqliteWriteBatches); on
 * PostgreSQL, a new aggregate and its events as one statement in autocommit, anything else one READ COMMITTED
 * transaction. Inside a transaction of the platform's (a request with an Idempotency-Key, an event's handler) the
 * unit is written into it when `work` resolves, and commits with it.
 */
@Injectable()
export class OutboxUnitOfWork extends UnitOfWork {
  constructor(
    private readonly db: SqlClient,
    private readonly outbox: Outbox,
  ) {
    super();
  }

  run<T>(work: () => Promise<T>): Promise<T> {
    // Joined: what `work` saves is the running unit's.
    if (this.db.unit) return work();
    // Written into the platform's transaction, which runs again (or fails) as a whole on a conflict.
    if (this.db.inTransaction) return this.attempt(work);
    return this.db.retryingConflicts(() => this.attempt(work));
  }

  private async attempt<T>(work: () => Promise<T>): Promise<T> {
    const unit = new PendingUnit();
    const result = await this.db.withinUnit(unit, work);
    await this.commit(unit);
    return result;
  }

  private async commit(unit: PendingUnit): Promise<void> {
    // Made once, before the transaction (which PostgreSQL may run again): from the aggregates as they were read.
    const writes = unit.writes();
    // Nothing saved: nothing to write (an aggregate's events are written with its row, never without it).
    if (writes.length === 0) return;
    // Made after the writes (a new aggregate has its id then), anew by each attempt; cleared once committed.
    const events = () => [...unit.sources].flatMap((source) => source.recordedEvents());
    const [first] = writes;
    if (this.db.isPostgres && !this.db.inTransaction && writes.length === 1 && 'inserted' in first) {
      await this.outbox.insertWithEvents(first, events, PENDING_ID);
    } else {
      let recorded: DomainEvent[] = [];
      const rows = () => {
        const made = this.outbox.rowsOf(events());
        recorded = made.recorded;
        return made.rows;
      };
      await this.db.commitUnit(writes, { sql: this.outbox.statements.publishRows, rows });
      if (this.db.inTransaction) this.db.onCommit(() => this.outbox.committed(recorded));
      else this.outbox.committed(recorded);
    }
    for (const source of unit.sources) source.clearEvents();
  }
}
