import { Injectable } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { probeSqliteWrite } from '../database/sqlite-write-probe';

/**
 * Whether the database can serve reads and writes. terminus' TypeORM ping runs
 * `SELECT 1`, which never touches a SQLite file: it would say "up" while
 * another process holds the database locked.
 */
@Injectable()
export class DatabaseHealthIndicator {
  constructor(
    private readonly indicators: HealthIndicatorService,
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
  ) {}

  async check(key: string) {
    const session = this.indicators.check(key);
    const started = Date.now();
    const { database, databaseTimeoutMs } = this.config;
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        database.type === 'sqlite'
          ? this.dataSource
              .query('SELECT count(*) FROM sqlite_master')
              .then(() => probeSqliteWrite(database.path, databaseTimeoutMs))
          : this.dataSource.query('SELECT 1'),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error('timed out')), databaseTimeoutMs + 500);
        }),
      ]);
      return session.up({ responseTime: Date.now() - started });
    } catch {
      return session.down({ responseTime: Date.now() - started });
    } finally {
      clearTimeout(timer);
    }
  }
}
