import { AUTH, type TestApp } from './test-app';

interface Schema {
  $ref?: string;
  allOf?: Schema[];
  type?: string;
  required?: string[];
  properties?: Record<string, Schema>;
  example?: unknown;
  default?: unknown;
  enum?: unknown[];
  minLength?: number;
  minimum?: number;
}

interface Document {
  paths: Record<string, { post?: { requestBody?: { content: Record<string, { schema: Schema }> } } }>;
  components: { schemas: Record<string, Schema> };
}

/**
 * Makes `count` records through `POST <path>` of the running application, each of the body its OpenAPI document
 * describes (each required property's example, else its default, its first value, its least), and answers their ids
 * in order. For a test of a module whose records name another module's (`petId:ref(pets)`): what they name is made
 * through that module's own API, whatever its fields, and the test fails here, saying why, if it cannot be.
 */
export async function makeExamples(t: TestApp, path: string, count: number): Promise<number[]> {
  const document = (await t.http().get('/v1/openapi.json')).body as Document;
  const body = exampleOf(document, requestSchemaOf(document, path), `POST ${path}`) as object;
  const ids: number[] = [];
  for (let n = 0; n < count; n++) {
    const response = await t.http().post(path).set(AUTH).send(body);
    if (response.status !== 201) {
      throw new Error(`POST ${path} ${JSON.stringify(body)} answered ${response.status}: ${response.text}`);
    }
    ids.push((response.body as { id: number }).id);
  }
  return ids;
}

/** The schema of the body `POST <path>` takes; the document's paths are under its server, `/v1`. */
function requestSchemaOf(document: Document, path: string): Schema {
  const schema = document.paths[path.replace(/^\/v1\//, '/')]?.post?.requestBody?.content['application/json']?.schema;
  if (!schema) throw new Error(`the OpenAPI document has no POST ${path} with a JSON body`);
  return schema;
}

/** A value of `schema`: an object of its required properties, each its example, default, first value or least. */
function exampleOf(document: Document, schema: Schema, where: string): unknown {
  if (schema.allOf?.length === 1)
    return exampleOf(document, { ...schema, ...schema.allOf[0], allOf: undefined }, where);
  const resolved = schema.$ref ? document.components.schemas[schema.$ref.replace('#/components/schemas/', '')] : schema;
  if (resolved.example !== undefined) return resolved.example;
  if (resolved.default !== undefined) return resolved.default;
  if (resolved.enum !== undefined) return resolved.enum[0];
  if (resolved.type === 'object' || resolved.properties) {
    return Object.fromEntries(
      (resolved.required ?? []).map((name) => [
        name,
        exampleOf(document, resolved.properties?.[name] ?? {}, `${where}: ${name}`),
      ]),
    );
  }
  if (resolved.type === 'string') return 'x'.repeat(Math.max(1, resolved.minLength ?? 1));
  if (resolved.type === 'integer' || resolved.type === 'number') return resolved.minimum ?? 1;
  throw new Error(`${where}: no example, default or values in the OpenAPI document to make one of`);
}
