// The __things-kebab__ module's public surface: what the app and other modules may use, and nothing else (a test
// fails on an export nothing outside the module imports). Export a facade here when another module needs one.
export { __THING___ERROR_CODES } from './domain/__thing-kebab__.errors';
export { __Things__Module } from './__things-kebab__.module';
