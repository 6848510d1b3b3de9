/**
 * The feature modules that make up the service: one line each. A module's
 * `index.ts` exports its feature (its Nest module, migrations and error
 * codes); listing it here mounts its routes under `/v1`, runs its migrations,
 * and puts it under the README, architecture and OpenAPI checks.
 * `npm run generate:module -- <name>` adds the line for a new module.
 */
export { authFeature } from '@app/auth';
export { petsFeature } from '@app/pets';
