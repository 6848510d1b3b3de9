import { int64Of } from '@app/database';
// <sample>
import { __Thing__ } from '../domain/__thing-kebab__';
// <each field>
// <enum>
import { __Thing____Field__ } from '../domain/__thing-kebab__-__field-kebab__';
// </enum>
// </each>
// </sample>
// <bare>
import { __Thing__ } from '../domain/__thing-kebab__';
// </bare>
import type { __Thing__Record } from './__thing-kebab__.record';

/** Converts between the table's row and the domain, so neither leaks into the other. */
export const __Thing__Mapper = {
  /** A row as the repository reads it: its int64 id as decimal text, read exactly (`int64Of`). */
  toDomain(record: __Thing__Record): __Thing__ {
// <sample>
    return __Thing__.restore(int64Of(record.id), Number(record.version), { __EACH(__field__: __fromRecord__)__ });
// </sample>
// <bare>
    return __Thing__.restore(int64Of(record.id), Number(record.version));
// </bare>
  },

// <sample>
  /** Its columns as a save writes them; the id and the version are the database's. */
  toRecord(__thing__: __Thing__): Omit<__Thing__Record, 'id' | 'version'> {
    return { __EACH(__field__: __toRecord__)__ };
  },
// </sample>
};
