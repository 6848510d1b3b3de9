import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ServiceInfo } from '@app/platform';

/** How the service names itself in its OpenAPI document, its docs page, its metrics and `/health`. */
export const PETSTORE_SERVICE: ServiceInfo = {
  id: 'petstore',
  title: 'Pet Store',
  description:
    'A pet catalogue: list, add and fetch pets, and a store that takes orders for them (beta). Every operation needs a bearer API key.',
  version: '1.1.0',
  release: packageVersionAbove(__dirname),
};

/**
 * The version in the nearest `package.json` at or above `directory`: the
 * project's own, whether the code runs from `dist/` or from the sources.
 */
function packageVersionAbove(directory: string): string {
  for (let dir = directory; ; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${directory}`);
  }
}
