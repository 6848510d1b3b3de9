import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { describe, expect, it } from 'vitest';
import { IsDateTime, parseDateTime } from './date-time';

describe('parseDateTime', () => {
  it.each([
    ['2026-02-28T09:30:00Z', '2026-02-28T09:30:00.000Z'],
    ['2028-02-29T23:59:59Z', '2028-02-29T23:59:59.000Z'],
    ['2000-02-29T00:00:00Z', '2000-02-29T00:00:00.000Z'],
    ['2026-11-24t05:00:00z', '2026-11-24T05:00:00.000Z'],
    ['2026-11-24T05:00:00.5Z', '2026-11-24T05:00:00.500Z'],
    ['2026-11-24T05:00:00.123456789Z', '2026-11-24T05:00:00.123Z'],
    ['2026-11-24T05:00:00+01:00', '2026-11-24T04:00:00.000Z'],
    ['2026-11-24T00:30:00-05:30', '2026-11-24T06:00:00.000Z'],
    ['2026-01-01T00:00:00+14:00', '2025-12-31T10:00:00.000Z'],
    ['0001-01-01T00:00:00Z', '0001-01-01T00:00:00.000Z'],
  ])('reads %s as %s', (text, instant) => {
    expect(parseDateTime(text)?.toISOString()).toBe(instant);
  });

  it.each([
    ['2026-02-30T00:00:00Z', 'a day February does not have (Date.parse: 2 March)'],
    ['2026-02-29T00:00:00Z', '29 February of a common year'],
    ['1900-02-29T00:00:00Z', '29 February of a century that is not a leap year'],
    ['2026-04-31T00:00:00Z', '31 April'],
    ['2026-13-01T00:00:00Z', 'month 13'],
    ['2026-00-10T00:00:00Z', 'month 0'],
    ['2026-11-00T00:00:00Z', 'day 0'],
    ['2026-11-24T24:00:00Z', 'hour 24'],
    ['2026-11-24T23:60:00Z', 'minute 60'],
    ['2016-12-31T23:59:60Z', 'a leap second'],
    ['2026-11-24T05:00:00', 'no offset (Date.parse: local time)'],
    ['2026-11-24', 'a date alone'],
    ['2026-11-24 05:00:00Z', 'a space for T'],
    ['2026-11-24T05:00Z', 'no seconds'],
    ['2026-11-24T05:00:00+0100', 'an offset without its colon'],
    ['2026-11-24T05:00:00+24:00', 'offset hour 24'],
    ['2026-11-24T05:00:00.Z', 'an empty fraction'],
    ['+002026-11-24T05:00:00Z', 'an extended year'],
    [' 2026-11-24T05:00:00Z', 'a leading space'],
    ['', 'nothing'],
  ])('refuses %s: %s', (text) => {
    expect(parseDateTime(text)).toBeUndefined();
  });
});

describe('@IsDateTime()', () => {
  class Meeting {
    @IsDateTime()
    startsAt!: unknown;
  }
  const errorsOf = (startsAt: unknown) =>
    validateSync(plainToInstance(Meeting, { startsAt })).flatMap((error) => Object.values(error.constraints ?? {}));

  it('accepts an RFC 3339 date-time string', () => {
    expect(errorsOf('2026-02-28T09:30:00Z')).toEqual([]);
  });

  it.each([['2026-02-30T00:00:00Z'], [1795496289198], [null], [['2026-02-28T09:30:00Z']]])(
    'refuses %j, naming the property and the format',
    (value) => {
      expect(errorsOf(value)).toEqual([
        'startsAt must be an RFC 3339 date-time with a time zone, such as 2026-02-28T09:30:00Z, on a day that exists',
      ]);
    },
  );
});
