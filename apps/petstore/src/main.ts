// First: the modules imported after it are compiled through Node's compile cache.
import './compile-cache';
import './refuse-inspector-signal';
import 'reflect-metadata';
import { logStartupFailure } from '@app/platform';
import { serve } from './serve';

serve().catch((error: unknown) => {
  logStartupFailure(error);
  process.exit(1);
});
