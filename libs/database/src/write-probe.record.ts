import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The `database_write_probe` table: a row per process, which its readiness rewrites (see write-probe.ts). */
@Entity({ name: 'database_write_probe' })
export class WriteProbeRecord {
  @PrimaryColumn({ type: 'integer' })
  id: number;

  @Column({ name: 'probed_at', type: 'varchar', length: 40 })
  probedAt: string;
}
