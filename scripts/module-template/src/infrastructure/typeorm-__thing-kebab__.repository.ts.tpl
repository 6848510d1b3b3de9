import { Injectable } from '@nestjs/common';
import { SqlClient } from '@app/database';
import type { Repository } from 'typeorm';
import { __Thing__, type New__Thing__ } from '../domain/__thing-kebab__';
import { __Thing__Repository } from '../domain/__thing-kebab__.repository';
import { __Thing__Mapper } from './__thing-kebab__.mapper';
import { __Thing__Record } from './__thing-kebab__.record';

/**
 * The `__things_snake__` table through TypeORM's repository of __Thing__Record,
 * the same on both databases. Writes go inside the platform's `transaction()`
 * (on SQLite, the one connection that writes); a use case that writes more
 * than once wraps them all in one.
 */
@Injectable()
export class TypeOrm__Thing__Repository extends __Thing__Repository {
  constructor(private readonly db: SqlClient) {
    super();
  }

  /** On the current transaction's connection, when there is one. */
  private get records(): Repository<__Thing__Record> {
    return this.db.repository(__Thing__Record);
  }

  async add(__thing__: New__Thing__): Promise<__Thing__> {
    const { identifiers } = await this.db.transaction(() => this.records.insert(__Thing__Mapper.toRecord(__thing__)));
    return __Thing__.identified(Number(identifiers[0].id), __thing__);
  }

  async findById(id: number): Promise<__Thing__ | undefined> {
    const record = await this.records.findOneBy({ id });
    return record ? __Thing__Mapper.toDomain(record) : undefined;
  }

// <sample>
  async list(limit: number): Promise<__Thing__[]> {
    const records = await this.records.find({ order: { id: 'ASC' }, take: limit });
    return records.map(__Thing__Mapper.toDomain);
  }
// </sample>
}
