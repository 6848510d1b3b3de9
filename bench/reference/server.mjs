// The reference implementation for the benchmark: the same contract written
// directly on Fastify 5 with the same sqlite3 driver and PRAGMAs (WAL,
// synchronous=FULL, busy timeout), one connection. Not part of the service:
// it exists so that every benchmark figure is a ratio measured side by side.
// With REFERENCE_DRIVER=better-sqlite3 it runs on better-sqlite3 instead
// (synchronous calls, statements prepared once), the faster embedded driver
// the design card does not name: the benchmark's second reference row.
// REFERENCE_HEADERS (a JSON object) makes it send those headers and an
// X-Request-Id on every answer, as the service does: the same bytes on the
// wire, so that the load generator's share of 2 cores is the same for both.
// Run: API_KEYS=... DATABASE_PATH=... PORT=... node bench/reference/server.mjs
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import Fastify from 'fastify';

const keys = (process.env.API_KEYS ?? '')
  .split(',')
  .filter(Boolean)
  .map((key) => createHash('sha256').update(key).digest());
const { run, all, close } =
  process.env.REFERENCE_DRIVER === 'better-sqlite3'
    ? await betterSqlite3(process.env.DATABASE_PATH)
    : await sqlite3(process.env.DATABASE_PATH);

/** node-sqlite3: every call a trip through libuv's thread pool, as under TypeORM. */
async function sqlite3(path) {
  const { default: driver } = await import('sqlite3');
  const db = new driver.Database(path);
  return {
    run: (sql, params = []) =>
      new Promise((resolve, reject) =>
        db.run(sql, params, function (error) {
          if (error) reject(error);
          else resolve(this);
        }),
      ),
    all: (sql, params = []) =>
      new Promise((resolve, reject) => db.all(sql, params, (error, rows) => (error ? reject(error) : resolve(rows)))),
    close: (done) => db.close(done),
  };
}

/** better-sqlite3: synchronous calls on the event loop, each statement prepared once. */
async function betterSqlite3(path) {
  const { default: Database } = await import('better-sqlite3');
  const db = new Database(path);
  const statements = new Map();
  const prepared = (sql) => statements.get(sql) ?? statements.set(sql, db.prepare(sql)).get(sql);
  return {
    run: async (sql, params = []) => {
      if (sql.startsWith('PRAGMA')) return db.pragma(sql.slice('PRAGMA '.length));
      return { lastID: Number(prepared(sql).run(...params).lastInsertRowid) };
    },
    all: async (sql, params = []) => prepared(sql).all(...params),
    close: (done) => {
      db.close();
      done();
    },
  };
}

await run('PRAGMA journal_mode = WAL');
await run('PRAGMA synchronous = FULL');
await run('PRAGMA busy_timeout = 3000');
await run(
  `CREATE TABLE IF NOT EXISTS "pets" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "name" varchar(255) NOT NULL, "category_id" bigint NOT NULL, "status" varchar(16) CHECK ("status" IN ('available', 'pending', 'sold')))`,
);
await run('CREATE INDEX IF NOT EXISTS "IDX_pets_status_id" ON "pets" ("status", "id")');

const error = (reply, status, code, message) => reply.code(status).send({ code, message, status });
const toPet = (row) =>
  row.status === null
    ? { id: row.id, name: row.name, categoryId: row.category_id }
    : { id: row.id, name: row.name, categoryId: row.category_id, status: row.status };
const statusEnum = ['available', 'pending', 'sold'];
const pet = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    name: { type: 'string' },
    categoryId: { type: 'integer' },
    status: { type: 'string', enum: statusEnum },
  },
  required: ['id', 'name', 'categoryId'],
};
const errorSchema = {
  type: 'object',
  properties: { code: { type: 'string' }, message: { type: 'string' }, status: { type: 'integer' } },
};

const app = Fastify({
  bodyLimit: 16 * 1024,
  ajv: { customOptions: { coerceTypes: false, removeAdditional: false } },
});
app.removeContentTypeParser('text/plain');
app.setErrorHandler((err, _request, reply) => {
  if (err.validation)
    return error(reply, 400, err.validationContext === 'body' ? 'invalid_body' : 'invalid_parameter', err.message);
  const status = err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 500;
  return error(
    reply,
    status,
    status === 500 ? 'internal_error' : 'bad_request',
    status === 500 ? 'internal server error' : err.message,
  );
});

const sameHeaders = process.env.REFERENCE_HEADERS ? JSON.parse(process.env.REFERENCE_HEADERS) : undefined;
if (sameHeaders) {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', randomUUID()).headers(sameHeaders);
    done();
  });
}

app.addHook('preParsing', async (request, reply, payload) => {
  if (request.url.startsWith('/health/')) return payload;
  const match = /^bearer +(\S+) *$/i.exec(request.headers.authorization ?? '');
  const digest = match ? createHash('sha256').update(match[1]).digest() : undefined;
  let ok = false;
  for (const key of keys) if (digest && timingSafeEqual(digest, key)) ok = true;
  if (!ok) {
    reply.header('www-authenticate', 'Bearer realm="petstore"');
    error(reply, 401, match ? 'invalid_api_key' : 'missing_api_key', 'unauthenticated');
    return reply;
  }
  return payload;
});

app.get('/health/live', async () => ({ status: 'ok' }));

app.get(
  '/v1/pets',
  {
    schema: {
      querystring: {
        type: 'object',
        additionalProperties: false,
        properties: {
          limit: { type: 'string', pattern: '^[0-9]+$' },
          status: { type: 'string', enum: statusEnum },
          after: { type: 'string', pattern: '^[0-9]+$' },
        },
      },
      response: { 200: { type: 'array', items: pet } },
    },
  },
  async (request, reply) => {
    const limit = request.query.limit === undefined ? 20 : Number(request.query.limit);
    if (limit < 1 || limit > 100)
      return error(reply, 400, 'invalid_parameter', 'limit must be an integer from 1 to 100');
    const after = Number(request.query.after ?? 0);
    const rows = request.query.status
      ? await all('SELECT id, name, category_id, status FROM pets WHERE status = ? AND id > ? ORDER BY id LIMIT ?', [
          request.query.status,
          after,
          limit + 1,
        ])
      : await all('SELECT id, name, category_id, status FROM pets WHERE id > ? ORDER BY id LIMIT ?', [
          after,
          limit + 1,
        ]);
    if (rows.length > limit) {
      rows.length = limit;
      const status = request.query.status ? `&status=${request.query.status}` : '';
      reply.header('link', `</v1/pets?limit=${limit}${status}&after=${rows[limit - 1].id}>; rel="next"`);
    }
    return rows.map(toPet);
  },
);

app.post(
  '/v1/pets',
  {
    schema: {
      body: {
        type: 'object',
        additionalProperties: false,
        required: ['name', 'categoryId'],
        properties: {
          name: { type: 'string', minLength: 1, maxLength: 255 },
          categoryId: { type: 'integer', minimum: -Number.MAX_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER },
          status: { type: 'string', enum: statusEnum },
        },
      },
      response: { 201: pet, 400: errorSchema },
    },
  },
  async (request, reply) => {
    const { name, categoryId, status } = request.body;
    const result = await run('INSERT INTO pets (name, category_id, status) VALUES (?, ?, ?)', [
      name,
      categoryId,
      status ?? null,
    ]);
    const created = toPet({ id: result.lastID, name, category_id: categoryId, status: status ?? null });
    return reply.code(201).header('location', `/v1/pets/${created.id}`).send(created);
  },
);

app.get('/v1/pets/:petId', { schema: { response: { 200: pet } } }, async (request, reply) => {
  reply
    .header('deprecation', '@1795219200')
    .header('sunset', 'Thu, 05 Dec 2030 00:00:00 GMT')
    .header('link', '</v1/pets>; rel="successor-version"');
  if (!/^-?\d+$/.test(request.params.petId))
    return error(reply, 400, 'invalid_parameter', 'petId must be a decimal integer');
  const rows = await all('SELECT id, name, category_id, status FROM pets WHERE id = ?', [Number(request.params.petId)]);
  if (rows.length === 0) return error(reply, 404, 'pet_not_found', `pet ${request.params.petId} does not exist`);
  return toPet(rows[0]);
});

await app.listen({ port: Number(process.env.PORT ?? 3100), host: '127.0.0.1' });
console.log(`reference listening on http://127.0.0.1:${app.server.address().port}`);
const stop = () => app.close().then(() => close(() => process.exit(0)));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
