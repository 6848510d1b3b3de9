import { beforeEach, describe, expect, it } from 'vitest';
import { __Thing__NotFoundError } from '../domain/__thing-kebab__.errors';
// <sample>
// <each field>
// <enum>
import { __Thing____Field__ } from '../domain/__thing-kebab__-__field-kebab__';
// </enum>
// </each>
// </sample>
import type { __Thing__ } from '../domain/__thing-kebab__';
import { InMemory__Thing__Repository } from '../domain/in-memory-__thing-kebab__.repository';
import { InMemoryUnitOfWork } from '@app/platform/testing';
// <refs>
// <each port>
import { __Port__ } from '../domain/__port-kebab__.port';
// </each>
// </refs>
import { __Things__Service } from './__things-kebab__.service';
// <refs>
// <each port>

/** The __refModule__ this test knows, by id: what __Port__ would find in __refModule__. */
class Known__Refs__ extends __Port__ {
  constructor(private readonly ids: bigint[]) {
    super();
  }

  exists(id: bigint): Promise<boolean> {
    return Promise.resolve(this.ids.includes(id));
  }
__otherMethods__
}
// </each>
// </refs>

// <sample>
/** A create's command with the fields it needs (the others take their defaults), and the __thing_words__ it makes. */
const COMMAND = { __EACH:required(__field__: __exampleJson__)__ };
const MADE = { __EACH(__field__: __madeDomain__)__ };
const stateOf = (__thing__: __Thing__) => ({ id: __thing__.id, __EACH(__field__: __thing__.__field__)__ });

// </sample>
// <bare>
const stateOf = (__thing__: __Thing__) => ({ id: __thing__.id });

// </bare>
describe('__Things__Service', () => {
  let repository: InMemory__Thing__Repository;
  let unitOfWork: InMemoryUnitOfWork;
  let service: __Things__Service;

  beforeEach(() => {
    unitOfWork = new InMemoryUnitOfWork();
    repository = new InMemory__Thing__Repository(unitOfWork.saved);
// <no refs>
    service = new __Things__Service(repository, unitOfWork);
// </no refs>
// <refs>
    service = new __Things__Service(repository, __EACH:port(new Known__Refs__([1n, 2n]))__, unitOfWork);
// </refs>
  });

// <sample>
  it('creates __a_thing__ of its fields, as value objects where they are closed, with its event', async () => {
    const created = await service.create(COMMAND);
    expect(stateOf(created)).toEqual({ id: 1n, ...MADE });
    expect(repository.stored.map(stateOf)).toEqual([stateOf(created)]);
    expect(unitOfWork.published).toEqual([
      { name: '__things-kebab__.__thing-kebab__-created', version: 1, aggregateId: '1', payload: { __thing__Id: 1n } },
    ]);
  });

  it.each([
// <each field>
// <string>
    [{ ...COMMAND, __field__: __wrongJson__ }, '__wrongWhy__'],
// </string>
// <int>
    [{ ...COMMAND, __field__: __wrongJson__ }, '__wrongWhy__'],
// </int>
// <enum>
    [{ ...COMMAND, __field__: __wrongJson__ }, '__wrongWhy__'],
// </enum>
// </each>
  ])('refuses %j before storing anything', async (command, why) => {
    await expect(service.create(command)).rejects.toThrow(why);
    expect(repository.stored).toEqual([]);
  });

// <each field>
// <ref>
  it('refuses a __field__ that names no __ref_words__ (422), asked in the unit of work that would write it', async () => {
    await expect(service.create({ ...COMMAND, __field__: 3 })).rejects.toThrow(
      expect.objectContaining({
        kind: 'unprocessable',
        code: '__thing_snake___unknown___ref_snake__',
        message: '__field__ 3 names no __ref_words__',
      }),
    );
    expect([repository.stored, unitOfWork.runs]).toEqual([[], 1]);
// <update>
    const created = await service.create(COMMAND);
    await expect(service.update(created.id, { __field__: 3 })).rejects.toThrow('__field__ 3 names no __ref_words__');
    expect(repository.stored.map(stateOf)).toEqual([stateOf(created)]);
// </update>
  });

// </ref>
// </each>
  it('pages by ascending id, with the cursor of the next page while more follow', async () => {
    for (let n = 0; n < 3; n++) await service.create(COMMAND);
    const first = await service.list({ limit: 2 });
    expect([first.items.map((__thing__) => __thing__.id), first.nextAfter]).toEqual([[1n, 2n], 2n]);
    const last = await service.list({ limit: 2, after: first.nextAfter });
    expect([last.items.map((__thing__) => __thing__.id), last.nextAfter]).toEqual([[3n], undefined]);
  });
// <update>

  it('changes the fields given, and keeps the others', async () => {
    const created = await service.create(COMMAND);
    let expected: Record<string, unknown> = { id: created.id, ...MADE };
// <each field>
    expected = { ...expected, __field__: __otherDomain__ };
    expect(stateOf(await service.update(created.id, { __field__: __otherJson__ }))).toEqual(expected);
// <string>
    await expect(service.update(created.id, { __field__: __wrongJson__ })).rejects.toThrow('__wrongWhy__');
// </string>
// <int>
    await expect(service.update(created.id, { __field__: __wrongJson__ })).rejects.toThrow('__wrongWhy__');
// </int>
// <enum>
    await expect(service.update(created.id, { __field__: __wrongJson__ })).rejects.toThrow('__wrongWhy__');
// </enum>
// </each>
    await expect(service.update(7n, {})).rejects.toThrow(__Thing__NotFoundError);
  });
// </update>
// <delete>

  it('removes __a_thing__ once', async () => {
    const created = await service.create(COMMAND);
    await service.remove(created.id);
    expect(repository.stored).toEqual([]);
    await expect(service.remove(created.id)).rejects.toThrow(__Thing__NotFoundError);
  });
// </delete>
// </sample>
// <bare>
  it('creates __a_thing__ and gets it back', async () => {
    const created = await service.create();
    expect(stateOf(created)).toEqual({ id: 1n });
    expect(repository.stored.map(stateOf)).toEqual([stateOf(created)]);
    expect(stateOf(await service.get(1n))).toEqual(stateOf(created));
  });
// </bare>

  it.each([2n, 0n, -1n, 2n ** 63n])('reports %s as not found', async (id) => {
// <sample>
    await service.create(COMMAND);
// </sample>
// <bare>
    await service.create();
// </bare>
    await expect(service.get(id)).rejects.toThrow(__Thing__NotFoundError);
    await expect(service.get(id)).rejects.toThrow(`__thing_words__ ${id} does not exist`);
  });
});
