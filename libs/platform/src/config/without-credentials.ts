/**
 * `text` with the credentials a URL in it may carry masked: its user and password (`//***@`) and the value of every
 * query parameter (`?token=***`), so that a configured URL can be named in a log line or an error message. Works on
 * text that is not a valid URL too (a configuration error echoes what it was given).
 */
export function withoutCredentials(text: string): string {
  return text
    .replace(/\/\/[^/?#\s@"]*@/g, '//***@')
    .replace(/\?[^\s#"]*/g, (query) =>
      query.replace(/([?&][^=&]*)=[^&]*/g, '$1=***').replace(/([?&])([^=&]+)(?=&|$)/g, '$1***'),
    );
}
