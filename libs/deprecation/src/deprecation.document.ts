import type { OpenAPIObject } from '@nestjs/swagger';
import { operationsOf } from '@app/platform';
import { DEPRECATION_EXTENSION } from './deprecated.decorator';

/** How the document describes each header a deprecated operation sends. */
const HEADER_DOCS: Readonly<Record<string, { name: string; description: string }>> = {
  deprecation: { name: 'Deprecation', description: 'RFC 9745: when the operation was deprecated.' },
  sunset: { name: 'Sunset', description: 'RFC 8594: when it stops being served.' },
  link: { name: 'Link', description: 'The successor operation.' },
};

/** Each operation declared `@Deprecated()`: marked deprecated, with its headers on every response. */
export function describeDeprecations(document: OpenAPIObject): void {
  for (const operation of operationsOf(document)) {
    const headers = operation[DEPRECATION_EXTENSION] as Record<string, string> | undefined;
    if (!headers) continue;
    delete operation[DEPRECATION_EXTENSION];
    operation.deprecated = true;
    const documented = Object.fromEntries(
      Object.entries(headers).map(([header, example]) => {
        const { name, description } = HEADER_DOCS[header];
        return [name, { description, schema: { type: 'string', example } }];
      }),
    );
    for (const response of Object.values(operation.responses))
      response.headers = { ...response.headers, ...documented };
  }
}
