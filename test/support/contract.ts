import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyInstance } from 'fastify';

interface Seen {
  method: string;
  url: string;
  route?: string;
  status: number;
  payload?: string;
}

type Document = {
  paths: Record<
    string,
    Record<string, { responses: Record<string, { content?: Record<string, { schema: object }> }> }>
  >;
  components: { schemas: Record<string, object> };
};

/**
 * Records every response an in-process application gives and checks it
 * against the OpenAPI document the application serves: the status must be one
 * the operation declares, and the body must match that response's schema.
 * So the code and the document cannot drift apart unnoticed.
 */
export class ContractRecorder {
  private readonly seen: Seen[] = [];

  attach(fastify: FastifyInstance): void {
    fastify.addHook('onSend', async (request, reply, payload) => {
      this.seen.push({
        method: request.method,
        url: request.url,
        route: request.is404 ? undefined : request.routeOptions.url,
        status: reply.statusCode,
        payload: typeof payload === 'string' ? payload : undefined,
      });
      return payload;
    });
  }

  get count(): number {
    return this.seen.length;
  }

  /** The mismatches, one line each (empty when every response fits the document). */
  check(document: Document): string[] {
    const ajv = new Ajv({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addFormat('int64', true).addFormat('int32', true);
    ajv.addSchema(document as object, 'openapi.json');
    const compiled = new Map<string, ValidateFunction>();
    const validator = (pointer: string, schema: object) => {
      if (!compiled.has(pointer)) {
        compiled.set(
          pointer,
          ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"openapi.json#/components/'))),
        );
      }
      return compiled.get(pointer)!;
    };
    const problems: string[] = [];
    for (const response of this.seen) {
      const where = `${response.method} ${response.url} -> ${response.status}`;
      // CORS preflights are answered before routing and are not operations of the contract.
      const preflight = response.method === 'OPTIONS' && response.status === 204;
      const inContract = response.url.startsWith('/v1/') && !response.url.startsWith('/v1/openapi.json') && !preflight;
      if (!inContract) continue;
      let schema: object | undefined = document.components.schemas.Error;
      let pointer = 'Error';
      if (response.route) {
        const path = response.route.slice('/v1'.length).replace(/:(\w+)/g, '{$1}');
        const operation = document.paths[path]?.[response.method === 'HEAD' ? 'get' : response.method.toLowerCase()];
        if (!operation) {
          problems.push(`${where}: no operation ${response.method} ${path} in the document`);
          continue;
        }
        const declared = operation.responses[String(response.status)];
        if (!declared) {
          problems.push(`${where}: status not declared (declared: ${Object.keys(operation.responses).join(', ')})`);
          continue;
        }
        schema = declared.content?.['application/json']?.schema;
        pointer = `${response.method} ${path} ${response.status}`;
      }
      if (response.method === 'HEAD' || response.payload === undefined) continue;
      if (!schema) {
        problems.push(`${where}: the document gives no JSON schema for this response`);
        continue;
      }
      const validate = validator(pointer, schema);
      if (!validate(JSON.parse(response.payload))) {
        problems.push(
          `${where}: body ${response.payload.slice(0, 200)} does not match: ${ajv.errorsText(validate.errors)}`,
        );
      }
    }
    return problems;
  }
}
