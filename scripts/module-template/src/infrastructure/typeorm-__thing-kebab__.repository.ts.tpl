import { Injectable } from '@nestjs/common';
import { SqlClient } from '@app/platform';
import { __Thing__, type New__Thing__ } from '../domain/__thing-kebab__';
import { __Thing__Repository } from '../domain/__thing-kebab__.repository';
import { __Thing__Mapper } from './__thing-kebab__.mapper';
import type { __Thing__Record } from './__thing-kebab__.record';

/**
 * The `__things_snake__` table through the platform's SqlClient (TypeORM's
 * DataSource, and `transaction()` when a use case needs one), with SQL written
 * once for both databases.
 */
@Injectable()
export class TypeOrm__Thing__Repository extends __Thing__Repository {
  private readonly sql: { insert: string; byId: string; list: string };

  constructor(private readonly db: SqlClient) {
    super();
    this.sql = {
      insert: db.dialect.insertReturningId('INSERT INTO __things_snake__ (name, status) VALUES ($1, $2)'),
      byId: db.dialect.statement('SELECT id, name, status FROM __things_snake__ WHERE id = $1'),
      list: db.dialect.statement('SELECT id, name, status FROM __things_snake__ ORDER BY id LIMIT $1'),
    };
  }

  async add(__thing__: New__Thing__): Promise<__Thing__> {
    const result = await this.db.write(this.sql.insert, [__thing__.name, __thing__.status.value]);
    return __Thing__.identified(this.db.dialect.insertedId(result), __thing__);
  }

  async findById(id: number): Promise<__Thing__ | undefined> {
    const rows = await this.db.read<__Thing__Record>(this.sql.byId, [id]);
    return rows.length > 0 ? __Thing__Mapper.toDomain(rows[0]) : undefined;
  }

  async list(limit: number): Promise<__Thing__[]> {
    const rows = await this.db.read<__Thing__Record>(this.sql.list, [limit]);
    return rows.map(__Thing__Mapper.toDomain);
  }
}
