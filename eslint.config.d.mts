// Types of eslint.config.mjs, for test/architecture.spec.ts.
import type { Linter } from 'eslint';

export declare const COMPUTED_IMPORTS: Array<{ selector: string; message: string }>;
export declare const UNSCOPED_ROUTES: Array<{ selector: string; message: string }>;
export declare const EARLY_EXIT_COMPARES: Array<{ selector: string; message: string }>;
export declare const LIBRARY_PRIVATES: Array<{ selector: string; message: string }>;
export declare const DECORATOR_STATE: Array<{ selector: string; message: string }>;
export declare const NEST_INTERNALS: {
  patterns: Array<{ regex: string; message: string }>;
  paths: Array<{ name: string; importNames: string[]; message: string }>;
};
declare const config: Linter.Config[];
export default config;
