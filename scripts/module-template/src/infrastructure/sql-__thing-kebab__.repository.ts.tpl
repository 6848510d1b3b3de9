import { Injectable } from '@nestjs/common';
import { SqlClient } from '@app/database';
// <sample>
import { __Thing__, type New__Thing__, type __Thing__Changes } from '../domain/__thing-kebab__';
import { __Thing__Repository, type __Thing__Page } from '../domain/__thing-kebab__.repository';
// </sample>
// <bare>
import { __Thing__, type New__Thing__ } from '../domain/__thing-kebab__';
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
const COLUMNS = 'CAST(id AS TEXT) AS id, __EACH(__column__)__';
// </sample>
// <bare>
const COLUMNS = 'CAST(id AS TEXT) AS id';
// </bare>

/**
 * The `__things_snake__` table, through the platform's SqlClient: statements written once for both databases
 * (`dialect`), each a span of the request's trace, joining the transaction a caller has open. Ids are bound as decimal
 * text, which both databases compare as the integer it spells.
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
      // One conditional write: the row as it is after it, or no row when none has the id.
      update: dialect.statement(
        'UPDATE __things_snake__ SET __EACH(__setClause__)__ ' +
          `WHERE __things_snake__.id = $1 RETURNING ${COLUMNS}`,
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

  async add(__thing__: New__Thing__): Promise<__Thing__> {
// <sample>
    const { __EACH(__field__)__ } = __Thing__Mapper.toRecord(__thing__);
    const result = await this.db.write(this.sql.insert, [__EACH(__field__)__]);
// </sample>
// <bare>
    const result = await this.db.write(this.sql.insert);
// </bare>
    return __Thing__.identified(this.db.dialect.insertedId(result), __thing__);
  }

  async findById(id: bigint): Promise<__Thing__ | undefined> {
    const [record] = await this.db.read<__Thing__Record>(this.sql.byId, [String(id)]);
    return record ? __Thing__Mapper.toDomain(record) : undefined;
  }

// <sample>
  async list({ limit, after }: __Thing__Page): Promise<__Thing__[]> {
    const records = await this.db.read<__Thing__Record>(this.sql.page, [String(after), limit]);
    return records.map(__Thing__Mapper.toDomain);
  }
// <update>

  async update(id: bigint, changes: __Thing__Changes): Promise<__Thing__ | undefined> {
    const { rows } = await this.db.write(this.sql.update, [
      String(id),
// <each field>
      __changeValue____changeFlag__,
// </each>
    ]);
    return rows.length > 0 ? __Thing__Mapper.toDomain(rows[0] as unknown as __Thing__Record) : undefined;
  }
// </update>
// <delete>

  async remove(id: bigint): Promise<boolean> {
    const { changed } = await this.db.write(this.sql.remove, [String(id)]);
    return changed === 1;
  }
// </delete>
// </sample>
}
