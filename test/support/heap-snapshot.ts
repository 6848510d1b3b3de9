import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { waitFor } from './wait-for';

/** What a process held when it wrote a heap snapshot: taken after a full collection, so only what it keeps. */
export interface HeldObjects {
  /** The length of each string that starts with `prefix` (a snapshot names a string by its first 1,024 characters). */
  stringLengths(prefix: string): number[];
  /** How many objects of the class `name`. */
  count(name: string): number;
}

/**
 * The environment that makes the built service write a heap snapshot into `folder` on SIGTTIN (Node's
 * `--heapsnapshot-signal`), for {@link heldObjects} to read.
 */
export const heapSnapshotOnSignal = (folder: string) => ({
  NODE_OPTIONS: `--heapsnapshot-signal=SIGTTIN --diagnostic-dir=${folder}`,
});

/** The snapshot the service wrote into `folder`, once it is whole. */
export async function heldObjects(folder: string): Promise<HeldObjects> {
  let snapshot: any;
  await waitFor(
    () => {
      const file = readdirSync(folder).find((name) => name.endsWith('.heapsnapshot'));
      try {
        snapshot = file && JSON.parse(readFileSync(join(folder, file), 'utf8'));
      } catch {
        snapshot = undefined; // still being written
      }
      return snapshot !== undefined;
    },
    'the heap snapshot',
    60_000,
  );
  const {
    node_fields: fields,
    node_types: [types],
  } = snapshot.snapshot.meta;
  const [type, name, size] = ['type', 'name', 'self_size'].map((field) => fields.indexOf(field));
  const nodes = Array.from({ length: snapshot.nodes.length / fields.length }, (_, index) => {
    const at = index * fields.length;
    return {
      kind: types[snapshot.nodes[at + type]] as string,
      name: snapshot.strings[snapshot.nodes[at + name]] as string,
      size: snapshot.nodes[at + size] as number,
    };
  });
  return {
    // A sequential one-byte string's size is its length and a 16-byte header.
    stringLengths: (prefix) =>
      nodes.filter((node) => node.kind === 'string' && node.name.startsWith(prefix)).map((node) => node.size - 16),
    count: (className) => nodes.filter((node) => node.kind === 'object' && node.name === className).length,
  };
}
