import { ValidateBy, type ValidationOptions } from 'class-validator';

/** RFC 3339 section 5.6 `date-time`; `T` and `Z` in either case, as the RFC allows. */
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;

/**
 * The instant an RFC 3339 date-time names, or `undefined` when the text is not
 * one. Strict where `Date.parse` is lenient: `2026-02-30T00:00:00Z` is refused
 * (`Date.parse` reads it as 2 March), so are a missing offset (which
 * `Date.parse` reads as local time), a date alone, hour 24 and a leap second
 * (`:60`, which a `Date` cannot hold). Fractions finer than a millisecond are
 * truncated.
 */
export function parseDateTime(text: string): Date | undefined {
  const match = DATE_TIME.exec(text);
  if (!match) return undefined;
  const [, year, month, day, hour, minute, second, fraction = '', sign, offsetHours, offsetMinutes] = match;
  const [y, mo, d, h, mi, s] = [year, month, day, hour, minute, second].map(Number);
  if (mo < 1 || mo > 12 || d < 1 || d > daysIn(y, mo) || h > 23 || mi > 59 || s > 59) return undefined;
  let offset = 0;
  if (sign !== undefined) {
    if (Number(offsetHours) > 23 || Number(offsetMinutes) > 59) return undefined;
    offset = (sign === '-' ? -1 : 1) * (Number(offsetHours) * 60 + Number(offsetMinutes));
  }
  const utc = new Date(0);
  utc.setUTCFullYear(y, mo - 1, d);
  utc.setUTCHours(h, mi - offset, s, Number(fraction.slice(0, 3).padEnd(3, '0')));
  return utc;
}

function daysIn(year: number, month: number): number {
  return [31, isLeap(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
}

function isLeap(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/**
 * A DTO property holding an RFC 3339 date-time string, checked with
 * {@link parseDateTime}: use it for every date a request carries, and convert
 * with `parseDateTime` in the handler or service.
 */
export function IsDateTime(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isDateTime',
      validator: {
        validate: (value: unknown) => typeof value === 'string' && parseDateTime(value) !== undefined,
        defaultMessage: () =>
          '$property must be an RFC 3339 date-time with a time zone, such as 2026-02-28T09:30:00Z, on a day that exists',
      },
    },
    options,
  );
}
