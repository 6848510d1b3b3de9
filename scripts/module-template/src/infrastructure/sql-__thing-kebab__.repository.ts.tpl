import { Injectable } from '@nestjs/common';
import { SqlClient } from '@app/database';
import type { __Thing__ } from '../domain/__thing-kebab__';
// <sample>
import { __Thing__Repository, type __Thing__Page } from '../domain/__thing-kebab__.repository';
// </sample>
// <bare>
import { __Thing__Repository } from '../domain/__thing-kebab__.repository';
// </bare>
import { __Thing__Mapper } from './__thing-kebab__.mapper';
import type { __Thing__Record } from './__thing-kebab__.record';

/**
 * The columns as __Thing__Record names them; the int64 id as decimal text, exact past 2^53 on both databases
 * (node-sqlite3 would read it as a double). The statements name the table's column in full (`__things_snake__.id`):
 * a bare `id` in ORDER BY would sort the text.
 */
// <sample>
const COLUMNS = 'CAST(id AS TEXT) AS id, __EACH(__column__)__, version';
// </sample>
// <bare>
const COLUMNS = 'CAST(id AS TEXT) AS id, version';
// </bare>

/**
 * The `__things_snake__` table, through the platform's SqlClient: statements written once for both databases
 * (`dialect`), each a span of the request's trace. A save is persisted with the unit of work, which writes it when it
 * commits. Ids are bound as decimal text, which both databases compare as the integer it spells.
 */
@Injectable()
export class Sql__Thing__Repository extends __Thing__Repository {
  private readonly sql: Record<string, string>;

  constructor(private readonly db: SqlClient) {
    super();
    const { dialect } = db;
    this.sql = {
// <sample>
      insert: dialect.insertReturningId('INSERT INTO __things_snake__ (__EACH(__field_snake__)__) VALUES (__EACH($__n__)__)'),
      page: dialect.statement(
        `SELECT ${COLUMNS} FROM __things_snake__ WHERE __things_snake__.id > $1 ORDER BY __things_snake__.id LIMIT $2`,
      ),
// <update>
      // Guarded by the version it was read at: of two writers who read the same __thing_words__, exactly one changes it.
      update: dialect.statement(
        'UPDATE __things_snake__ SET __EACH(__field_snake__ = $__n2__)__, version = version + 1 ' +
          'WHERE __things_snake__.id = $1 AND version = $2',
      ),
// </update>
// <delete>
      remove: dialect.statement('DELETE FROM __things_snake__ WHERE __things_snake__.id = $1'),
// </delete>
// </sample>
// <bare>
      insert: dialect.insertReturningId('INSERT INTO __things_snake__ DEFAULT VALUES'),
// </bare>
      byId: dialect.statement(`SELECT ${COLUMNS} FROM __things_snake__ WHERE __things_snake__.id = $1`),
    };
  }

  async save(__thing__: __Thing__): Promise<void> {
    this.db.persist(__thing__, () => {
// <sample>
// <update>
      if (!__thing__.isNew) {
        const { id, version } = __thing__;
        const { __EACH(__field__)__ } = __Thing__Mapper.toRecord(__thing__);
        return {
          sql: this.sql.update,
          parameters: [String(id), version, __EACH(__field__)__],
          updated: () => __thing__.stored(id, version + 1),
        };
      }
// </update>
      const { __EACH(__field__)__ } = __Thing__Mapper.toRecord(__thing__);
      return { sql: this.sql.insert, parameters: [__EACH(__field__)__], inserted: (id) => __thing__.stored(id, 1) };
// </sample>
// <bare>
      return { sql: this.sql.insert, parameters: [], inserted: (id) => __thing__.stored(id, 1) };
// </bare>
    });
  }

  /** The __thing_words__, read once per unit of work. */
  findById(id: bigint): Promise<__Thing__ | undefined> {
    return this.db.readOnce(`__things_snake__:${id}`, async () => {
      const [record] = await this.db.read<__Thing__Record>(this.sql.byId, [String(id)]);
      return record ? __Thing__Mapper.toDomain(record) : undefined;
    });
  }

// <sample>
  async list({ limit, after }: __Thing__Page): Promise<__Thing__[]> {
    const records = await this.db.read<__Thing__Record>(this.sql.page, [String(after), limit]);
    return records.map(__Thing__Mapper.toDomain);
  }
// <delete>

  async remove(id: bigint): Promise<boolean> {
    const { changed } = await this.db.write(this.sql.remove, [String(id)]);
    return changed === 1;
  }
// </delete>
// </sample>
}
