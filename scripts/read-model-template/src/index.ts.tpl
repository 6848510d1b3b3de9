// The __things-kebab__ module's public surface: what the app and other modules may use, and nothing else (a test
// fails on an export nothing outside the module imports).
import { defineFeature } from '@app/platform';
import { __THING___ERROR_CODES } from './domain/__thing-kebab__.errors';
import { __Thing__Record } from './infrastructure/__thing-kebab__.record';
import { __THINGS___MIGRATIONS } from './infrastructure/migrations';
import { __Things__Module } from './__things-kebab__.module';

/** The read model as the application composes it (its `composition.ts`, in FEATURES): its routes, its table. */
export const __things__Feature = defineFeature({
  name: '__things-kebab__',
  module: () => __Things__Module,
  entities: [__Thing__Record],
  migrations: __THINGS___MIGRATIONS,
  errorCodes: __THING___ERROR_CODES,
});
