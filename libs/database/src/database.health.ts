import { Injectable, type OnModuleInit } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ReadinessCheck } from '@app/platform';
import { writableOrRefused } from './open-data-source';
import { DatabaseSettings } from './database.settings';
import { SqlClient } from './sql-client';
import { SqliteFileGuard } from './sqlite-file-guard';
import { WriteProbe } from './write-probe';

/**
 * Readiness' check of the database (`@ReadinessCheck()`): whether it can serve reads and writes
 * now. terminus' TypeORM ping runs `SELECT 1`, which never touches a SQLite
 * file: it would say "up" while the file is gone, locked by another process,
 * read-only or on a full disk. This probe fails when the open file is no
 * longer at its path, when a read fails, and when a committed write fails; it
 * passes again, by itself, as soon as a write succeeds.
 */
@Injectable()
@ReadinessCheck()
export class DatabaseHealth implements ReadinessCheck, OnModuleInit {
  readonly name = 'database';

  constructor(
    private readonly dataSource: DataSource,
    private readonly sql: SqlClient,
    private readonly settings: DatabaseSettings,
    private readonly file: SqliteFileGuard,
    private readonly probe: WriteProbe,
  ) {}

  /** Proves, before the service serves, that this process can write there: a read-only database stops the start. */
  async onModuleInit(): Promise<void> {
    await writableOrRefused(() => this.probe.prove(this.dataSource), this.dataSource.options);
  }

  async isUp(): Promise<boolean> {
    const { location, timeoutMs } = this.settings;
    if (this.file.problem()) return false;
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        this.dataSource
          .query(location.type === 'sqlite' ? 'SELECT count(*) FROM sqlite_master' : 'SELECT 1')
          .then(() => this.probe.probe(this.sql)),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error('timed out')), timeoutMs + 500);
        }),
      ]);
      return true;
    } catch {
      return false;
    } finally {
      clearTimeout(timer);
    }
  }
}
