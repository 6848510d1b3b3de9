import { beforeEach, describe, expect, it } from 'vitest';
import { __Thing__, type New__Thing__ } from '../domain/__thing-kebab__';
import { __Thing__NotFoundError } from '../domain/__thing-kebab__.errors';
import { __Thing__Repository } from '../domain/__thing-kebab__.repository';
import { __Thing__Status } from '../domain/__thing-kebab__-status';
import { __Things__Service } from './__things-kebab__.service';

class InMemory__Thing__Repository extends __Thing__Repository {
  readonly stored: __Thing__[] = [];

  async add(__thing__: New__Thing__): Promise<__Thing__> {
    const added = __Thing__.identified(this.stored.length + 1, __thing__);
    this.stored.push(added);
    return added;
  }

  async findById(id: number): Promise<__Thing__ | undefined> {
    return this.stored.find((__thing__) => __thing__.id === id);
  }

  async list(limit: number): Promise<__Thing__[]> {
    return this.stored.slice(0, limit);
  }
}

describe('__Things__Service', () => {
  let repository: InMemory__Thing__Repository;
  let service: __Things__Service;

  beforeEach(() => {
    repository = new InMemory__Thing__Repository();
    service = new __Things__Service(repository);
  });

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

  it.each([2n, 0n, -1n, 2n ** 63n])('reports %s as not found', async (id) => {
    await service.create({ name: 'First' });
    await expect(service.get(id)).rejects.toThrow(__Thing__NotFoundError);
    await expect(service.get(id)).rejects.toThrow(`__thing__ ${id} does not exist`);
  });
});
