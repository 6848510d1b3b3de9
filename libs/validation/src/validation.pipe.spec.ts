import { ApiSchema } from '@nestjs/swagger';
import { describe, expect, it } from 'vitest';
import { AppError } from '@app/platform';
import { RequestValidationPipe } from './validation.pipe';

/** A body that takes no property yet, as a bare generated module's is. */
@ApiSchema({ name: 'Empty' })
class EmptyBody {}

describe('RequestValidationPipe', () => {
  const pipe = new RequestValidationPipe();
  const body = (value: unknown) => pipe.transform(value, { type: 'body', metatype: EmptyBody });

  it('takes an empty JSON object for a body DTO that declares no property', async () => {
    expect(await body({})).toEqual({});
  });

  it.each([
    [{ colour: 'red' }, "unknown property 'colour'"],
    [[], 'request body must be a JSON object'],
    ['text', 'request body must be a JSON object'],
  ])('refuses %j for it with invalid_body', async (value, message) => {
    await expect(body(value)).rejects.toEqual(new AppError('invalid', 'invalid_body', message));
    await expect(body(value)).rejects.toMatchObject({ code: 'invalid_body', kind: 'invalid' });
  });

  it('passes an argument that has no DTO untouched', async () => {
    expect(await pipe.transform('42', { type: 'param', metatype: String, data: 'petId' })).toBe('42');
    const reply = { sent: false };
    expect(await pipe.transform(reply, { type: 'custom', metatype: Object })).toBe(reply);
  });
});
