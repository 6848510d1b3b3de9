import { int64Of } from '@app/database';
// <sample>
import { __Thing__, type New__Thing__ } from '../domain/__thing-kebab__';
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
    return __Thing__.restore(int64Of(record.id), { __EACH(__field__: __fromRecord__)__ });
// </sample>
// <bare>
    return __Thing__.restore(int64Of(record.id));
// </bare>
  },

// <sample>
  toRecord(__thing__: New__Thing__): Omit<__Thing__Record, 'id'> {
    return { __EACH(__field__: __toRecord__)__ };
  },
// </sample>
};
