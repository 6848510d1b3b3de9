import { enableCompileCache } from 'node:module';

/**
 * Node's compile cache, for every module loaded after this one: each is
 * compiled once and its code kept on disk, so that a restart skips compiling
 * the thousand-odd files of Nest, TypeORM and the rest (a seventh of the time
 * to the first answer, decision 0014). In the system's temporary folder
 * unless NODE_COMPILE_CACHE names another; NODE_DISABLE_COMPILE_CACHE=1 turns
 * it off. Where the folder cannot be written, the service starts without it.
 */
enableCompileCache();
