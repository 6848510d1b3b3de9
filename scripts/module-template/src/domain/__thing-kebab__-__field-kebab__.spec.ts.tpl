// <sample>
import { describe, expect, it } from 'vitest';
import { Invalid__Thing__Error } from './__thing-kebab__.errors';
import { __Thing____Field__ } from './__thing-kebab__-__field-kebab__';

describe('__Thing____Field__', () => {
  it('has exactly one instance per allowed value', () => {
    expect(__Thing____Field__.all.map(String)).toEqual([__VALUES__]);
    expect(__Thing____Field__.from('__second__')).toBe(__Thing____Field__.__Second__);
  });

  it.each(['__SECOND__', '', '__absent__', 'toString', '__proto__'])('refuses %j', (raw) => {
    expect(() => __Thing____Field__.from(raw)).toThrow(Invalid__Thing__Error);
    expect(() => __Thing____Field__.from(raw)).toThrow('__field__ must be one of __values__');
  });
});
// </sample>
