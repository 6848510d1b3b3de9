// <sample>
import { Check, Column, Entity, PrimaryGeneratedColumn, VersionColumn } from 'typeorm';
// </sample>
// <bare>
import { Entity, PrimaryGeneratedColumn, VersionColumn } from 'typeorm';
// </bare>

/**
 * The `__things_snake__` table: its model, which the migrations make exactly (test/schema.e2e-spec.ts compares them on
 * both databases). Its int64 id is read as decimal text (the repository casts it): the mapper makes it a bigint.
 */
@Entity({ name: '__things_snake__' })
// <sample>
// <each field>
// <enum>
@Check('CHK___things_snake_____field_snake__', `"__field_snake__" IN (__VALUES__)`)
// </enum>
// </each>
// </sample>
export class __Thing__Record {
  @PrimaryGeneratedColumn({ type: 'bigint' })
  id: number | string;

// <sample>
// <each field>

// <string>
  @Column({ type: 'varchar', length: __max____columnOptions__ })
// </string>
// <int>
  @Column({ type: 'integer'__columnOptions__ })
// </int>
// <int64>
  @Column({ type: 'bigint'__columnOptions__ })
// </int64>
// <enum>
  @Column({ type: 'varchar', length: __length____columnOptions__ })
// </enum>
  __field__: __recordType__;
// </each>
// </sample>

  /** The row's version: 1 when added, one more at each change (the repository's save is guarded by it). */
  @VersionColumn({ type: 'integer', default: 1 })
  version: number;
}
