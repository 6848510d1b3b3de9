import { beforeEach, describe, expect, it } from 'vitest';
import { __Thing__NotFoundError } from '../domain/__thing-kebab__.errors';
import { InMemory__Thing__Repository } from '../domain/in-memory-__thing-kebab__.repository';
import { __Things__Service } from './__things-kebab__.service';

describe('__Things__Service', () => {
  let repository: InMemory__Thing__Repository;
  let service: __Things__Service;

  beforeEach(() => {
    repository = new InMemory__Thing__Repository();
    service = new __Things__Service(repository);
  });

  it('counts each event under its key, a count per key in the order keys were first heard', async () => {
    for (const key of ['first', 'second', 'first']) await service.count(key);
    expect(repository.stored).toEqual([
      { id: 1n, key: 'first', count: 2n },
      { id: 2n, key: 'second', count: 1n },
    ]);
    expect(await service.get('second')).toEqual({ id: 2n, key: 'second', count: 1n });
  });

  it.each(['', 'x'.repeat(201)])('refuses the key %j, counting nothing', async (key) => {
    await expect(service.count(key)).rejects.toThrow(RangeError);
    expect(repository.stored).toEqual([]);
  });

  it('pages by ascending id, with the cursor of the next page while more follow', async () => {
    for (const key of ['a', 'b', 'c']) await service.count(key);
    const first = await service.list({ limit: 2 });
    expect([first.__things__.map((__thing__) => __thing__.key), first.nextAfter]).toEqual([['a', 'b'], 2n]);
    const last = await service.list({ limit: 2, after: first.nextAfter });
    expect([last.__things__.map((__thing__) => __thing__.key), last.nextAfter]).toEqual([['c'], undefined]);
  });

  it('reports a key nothing was counted under as not found', async () => {
    await expect(service.get('never')).rejects.toThrow(__Thing__NotFoundError);
    await expect(service.get('never')).rejects.toThrow('nothing is counted under "never"');
  });
});
