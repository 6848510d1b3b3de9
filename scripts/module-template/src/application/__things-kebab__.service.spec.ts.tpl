import { beforeEach, describe, expect, it } from 'vitest';
import { __Thing__NotFoundError } from '../domain/__thing-kebab__.errors';
// <sample>
import { __Thing__Status } from '../domain/__thing-kebab__-status';
// </sample>
import { InMemory__Thing__Repository } from '../domain/in-memory-__thing-kebab__.repository';
import { __Things__Service } from './__things-kebab__.service';

describe('__Things__Service', () => {
  let repository: InMemory__Thing__Repository;
  let service: __Things__Service;

  beforeEach(() => {
    repository = new InMemory__Thing__Repository();
    service = new __Things__Service(repository);
  });

// <sample>
  it('creates __a_thing__ with a status value object', async () => {
    const created = await service.create({ name: 'First', status: 'active' });
    expect(created).toEqual({ id: 1n, name: 'First', status: __Thing__Status.Active });
    expect(repository.stored).toEqual([created]);
  });

  it('refuses an unknown status before storing anything', async () => {
    await expect(service.create({ name: 'First', status: 'lost' })).rejects.toThrow('status must be one of');
    expect(repository.stored).toEqual([]);
  });

  it('pages by ascending id, with the cursor of the next page while more follow', async () => {
    for (let n = 0; n < 3; n++) await service.create({ name: `n${n}` });
    const first = await service.list({ limit: 2 });
    expect([first.__things__.map((__thing__) => __thing__.name), first.nextAfter]).toEqual([['n0', 'n1'], 2n]);
    const last = await service.list({ limit: 2, after: first.nextAfter });
    expect([last.__things__.map((__thing__) => __thing__.name), last.nextAfter]).toEqual([['n2'], undefined]);
  });
// <update>

  it('changes the fields given, and keeps the others', async () => {
    const created = await service.create({ name: 'First' });
    expect(await service.update(created.id, { status: 'retired' })).toEqual({
      id: created.id,
      name: 'First',
      status: __Thing__Status.Retired,
    });
    await expect(service.update(created.id, { name: '' })).rejects.toThrow('name must be 1 to 255 characters long');
    await expect(service.update(7n, { name: 'Other' })).rejects.toThrow(__Thing__NotFoundError);
  });
// </update>
// <delete>

  it('removes __a_thing__ once', async () => {
    const created = await service.create({ name: 'First' });
    await service.remove(created.id);
    expect(repository.stored).toEqual([]);
    await expect(service.remove(created.id)).rejects.toThrow(__Thing__NotFoundError);
  });
// </delete>
// </sample>
// <bare>
  it('creates __a_thing__ and gets it back', async () => {
    const created = await service.create();
    expect(created).toEqual({ id: 1n });
    expect(repository.stored).toEqual([created]);
    expect(await service.get(1n)).toEqual(created);
  });
// </bare>

  it.each([2n, 0n, -1n, 2n ** 63n])('reports %s as not found', async (id) => {
// <sample>
    await service.create({ name: 'First' });
// </sample>
// <bare>
    await service.create();
// </bare>
    await expect(service.get(id)).rejects.toThrow(__Thing__NotFoundError);
    await expect(service.get(id)).rejects.toThrow(`__thing__ ${id} does not exist`);
  });
});
