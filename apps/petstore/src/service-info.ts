import { packageVersionAbove, type ServiceInfo } from '@app/platform';

/** How the service names itself in its OpenAPI document, its docs page, its metrics and `/health`. */
export const PETSTORE_SERVICE: ServiceInfo = {
  id: 'petstore',
  title: 'Pet Store',
  description: 'A pet catalogue: list, add and fetch pets. Every operation needs a bearer API key.',
  version: '1.0.0',
  release: packageVersionAbove(__dirname),
};
