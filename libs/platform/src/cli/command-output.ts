/** Where a command-line tool of the service writes (`npm run keys`, `npm run backup`): a line to stdout, to stderr. */
export interface CommandOutput {
  out(text: string): void;
  err(text: string): void;
}

/** Rows as a command prints them: columns padded to their widest cell, two spaces apart, no trailing blanks. */
export function textTable(rows: readonly (readonly string[])[]): string {
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  return rows
    .map((row) =>
      row
        .map((cell, column) => cell.padEnd(widths[column]))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}
