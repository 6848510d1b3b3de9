/** Where a command-line tool of the service writes (`npm run keys`, `npm run backup`): a line to stdout, to stderr. */
export interface CommandOutput {
  out(text: string): void;
  err(text: string): void;
}
