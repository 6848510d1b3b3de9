import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { SqlDialect } from '@app/platform';
import type { DataSource } from 'typeorm';
import { __Thing__, type New__Thing__ } from '../domain/__thing-kebab__';
import { __Thing__Repository } from '../domain/__thing-kebab__.repository';
import { __Thing__Mapper } from './__thing-kebab__.mapper';
import type { __Thing__Record } from './__thing-kebab__.record';

/** The `__things_snake__` table through TypeORM's connection, with SQL written once for both databases. */
@Injectable()
export class TypeOrm__Thing__Repository extends __Thing__Repository {
  private readonly dialect: SqlDialect;
  private readonly sql: { insert: string; byId: string; list: string };

  constructor(@InjectDataSource() private readonly dataSource: DataSource) {
    super();
    this.dialect = SqlDialect.of(dataSource);
    this.sql = {
      insert: this.dialect.insertReturningId('INSERT INTO __things_snake__ (name, status) VALUES ($1, $2)'),
      byId: this.dialect.statement('SELECT id, name, status FROM __things_snake__ WHERE id = $1'),
      list: this.dialect.statement('SELECT id, name, status FROM __things_snake__ ORDER BY id LIMIT $1'),
    };
  }

  async add(__thing__: New__Thing__): Promise<__Thing__> {
    const result: unknown = await this.dataSource.query(this.sql.insert, [__thing__.name, __thing__.status.value]);
    return __Thing__.identified(this.dialect.insertedId(result), __thing__);
  }

  async findById(id: number): Promise<__Thing__ | undefined> {
    const rows: __Thing__Record[] = await this.dataSource.query(this.sql.byId, [id]);
    return rows.length > 0 ? __Thing__Mapper.toDomain(rows[0]) : undefined;
  }

  async list(limit: number): Promise<__Thing__[]> {
    const rows: __Thing__Record[] = await this.dataSource.query(this.sql.list, [limit]);
    return rows.map(__Thing__Mapper.toDomain);
  }
}
