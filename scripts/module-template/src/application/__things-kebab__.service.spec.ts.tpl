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
    expect(created).toEqual({ id: 1, name: 'First', status: __Thing__Status.Active });
    expect(repository.stored).toEqual([created]);
  });

  it('refuses an unknown status before storing anything', async () => {
    await expect(service.create({ name: 'First', status: 'lost' })).rejects.toThrow('status must be one of');
    expect(repository.stored).toEqual([]);
  });

  it('lists at most the page size', async () => {
    for (let n = 0; n < 3; n++) await service.create({ name: `n${n}` });
    expect((await service.list(2)).map((__thing__) => __thing__.name)).toEqual(['n0', 'n1']);
  });
// </sample>
// <bare>
  it('creates __a_thing__ and gets it back', async () => {
    const created = await service.create();
    expect(created).toEqual({ id: 1 });
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
