import type { OpenAPIObject } from '@nestjs/swagger';
import { operationsOf } from '@app/platform';
import { INT64_MAX, INT64_MIN } from './integer-id.pipe';

/** JSON.rawJSON (Node 22): a number written with exactly these digits, which a double cannot hold. */
const rawJson = (JSON as unknown as { rawJSON(text: string): unknown }).rawJSON;

const INT64_NOTE =
  'An int64: values past 2^53 (9007199254740992) are written with their exact digits, which a JavaScript client reads exactly only with a JSON parser that keeps big integers (JSON.parse rounds them).';

/** What the validation refuses, said in the document for generated clients and schema-driven testers. */
export function describeValidation(document: OpenAPIObject): void {
  closeRequestBodies(document);
  stateInt64Bounds(document);
}

/** A body DTO's undeclared properties are refused: its schema says `additionalProperties: false`. */
function closeRequestBodies(document: OpenAPIObject): void {
  for (const operation of operationsOf(document)) {
    const body = operation.requestBody as { content?: Record<string, { schema?: { $ref?: string } }> } | undefined;
    const ref = body?.content?.['application/json']?.schema?.$ref;
    const schema = ref ? document.components?.schemas?.[ref.split('/').pop()!] : undefined;
    if (schema && !('$ref' in schema)) schema.additionalProperties = false;
  }
}

/**
 * Every int64 schema states the range the service enforces: where a DTO gives
 * no bound of its own, the int64 one, written with its exact digits; and where
 * the range passes 2^53, a note for JavaScript clients.
 */
function stateInt64Bounds(value: unknown): void {
  if (Array.isArray(value)) return value.forEach(stateInt64Bounds);
  if (typeof value !== 'object' || value === null) return;
  const schema = value as Record<string, unknown>;
  if (
    schema.type === 'integer' &&
    schema.format === 'int64' &&
    (schema.maximum === undefined || schema.minimum === undefined)
  ) {
    schema.minimum ??= rawJson(String(INT64_MIN));
    schema.maximum ??= rawJson(String(INT64_MAX));
    schema.description = schema.description ? `${String(schema.description)} ${INT64_NOTE}` : INT64_NOTE;
    return;
  }
  Object.values(schema).forEach(stateInt64Bounds);
}
