import { Injectable } from '@nestjs/common';
import { SqlClient } from '@app/database';
import type { __Thing__ } from '../domain/__thing-kebab__';
import { __Thing__Repository, type __Thing__Page } from '../domain/__thing-kebab__.repository';

/** The columns, the int64 ones as decimal text: exact past 2^53 on both databases. */
const COLUMNS = 'CAST(id AS TEXT) AS id, "key", CAST("count" AS TEXT) AS "count"';

/**
 * The `__things_snake__` table, through the platform's SqlClient: statements written once for both databases
 * (`dialect`), each a span of the request's trace, joining the transaction a caller has open (a handler's, for
 * `add`).
 */
@Injectable()
export class Sql__Thing__Repository extends __Thing__Repository {
  private readonly sql: Record<'add' | 'byKey' | 'page', string>;

  constructor(private readonly db: SqlClient) {
    super();
    const { dialect } = db;
    this.sql = {
      // One statement: the first event under a key makes its row, each other adds one to it.
      add: dialect.statement(
        'INSERT INTO __things_snake__ ("key", "count") VALUES ($1, 1) ' +
          'ON CONFLICT ("key") DO UPDATE SET "count" = __things_snake__."count" + 1',
      ),
      byKey: dialect.statement(`SELECT ${COLUMNS} FROM __things_snake__ WHERE "key" = $1`),
      page: dialect.statement(
        `SELECT ${COLUMNS} FROM __things_snake__ WHERE __things_snake__.id > $1 ORDER BY __things_snake__.id LIMIT $2`,
      ),
    };
  }

  async add(key: string): Promise<void> {
    await this.db.write(this.sql.add, [key]);
  }

  async findByKey(key: string): Promise<__Thing__ | undefined> {
    const [row] = await this.db.read<Row>(this.sql.byKey, [key]);
    return row ? toDomain(row) : undefined;
  }

  async list({ limit, after }: __Thing__Page): Promise<__Thing__[]> {
    return (await this.db.read<Row>(this.sql.page, [String(after), limit])).map(toDomain);
  }
}

interface Row {
  id: string;
  key: string;
  count: string;
}

function toDomain(row: Row): __Thing__ {
  return { id: BigInt(row.id), key: row.key, count: BigInt(row.count) };
}
