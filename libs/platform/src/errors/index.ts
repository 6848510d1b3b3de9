// Framework-free on purpose: domain code imports this entry point.
export { AppError } from './app-error';
export type { ErrorKind } from './app-error';
