import { Injectable } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { SqliteFileIdentity } from '../database/sqlite-file-identity';
import { probeWrite } from '../database/write-probe';

/**
 * Whether the database can serve reads and writes now. terminus' TypeORM ping
 * runs `SELECT 1`, which never touches a SQLite file: it would say "up" while
 * the file is gone, locked by another process, read-only or on a full disk.
 * This check fails when the open file is no longer at its path, when a read
 * fails, and when a committed write fails; it passes again, by itself, as soon
 * as a write succeeds.
 */
@Injectable()
export class DatabaseHealthIndicator {
  constructor(
    private readonly indicators: HealthIndicatorService,
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
    private readonly file: SqliteFileIdentity,
  ) {}

  async check(key: string) {
    const session = this.indicators.check(key);
    const started = Date.now();
    const { database, databaseTimeoutMs } = this.config;
    let timer: NodeJS.Timeout | undefined;
    try {
      if (this.file.problem()) throw new Error('detached');
      await Promise.race([
        this.dataSource
          .query(database.type === 'sqlite' ? 'SELECT count(*) FROM sqlite_master' : 'SELECT 1')
          .then(() => probeWrite(database, this.dataSource, databaseTimeoutMs)),
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
