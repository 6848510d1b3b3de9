// The benchmark's third reference: the same contract on the design card's
// stack and nothing else. NestJS on Fastify, one controller, Nest's own
// ValidationPipe with class-validator/class-transformer DTOs, a bearer guard
// (SHA-256 digests, as the reference), and the same SQL sent through TypeORM's
// DataSource on the same sqlite3 driver with the same PRAGMAs. No security
// headers, request log, metrics, request ids, OpenAPI, rate limiting or error
// filter: what the card's libraries cost on this contract by themselves, so
// that the service's gap to the plain Fastify reference splits into the
// framework's part and the service's own. Like the service, it hands TypeORM a
// sqlite3 whose verbose() is a no-op (decision 0005: TypeORM's verbose mode
// inspects every call's arguments).
// REFERENCE_HEADERS: as the reference, the service's headers on every answer.
// Plain JavaScript, so the decorators are applied as TypeScript would emit them.
// Run: API_KEYS=... DATABASE_PATH=... PORT=... node bench/reference/nest-bare.mjs
import 'reflect-metadata';
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import {
  Body,
  Controller,
  Get,
  Header,
  Module,
  NotFoundException,
  Param,
  ParseIntPipe,
  Post,
  Query,
  Res,
  UnauthorizedException,
  ValidationPipe,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Length, Max, Min } from 'class-validator';
import sqlite3 from 'sqlite3';
import { DataSource } from 'typeorm';

const keys = (process.env.API_KEYS ?? '')
  .split(',')
  .filter(Boolean)
  .map((key) => createHash('sha256').update(key).digest());
const STATUSES = ['available', 'pending', 'sold'];

const driver = { ...sqlite3, verbose: () => driver };
const db = await new DataSource({
  type: 'sqlite',
  database: process.env.DATABASE_PATH,
  driver,
  enableWAL: true,
  busyTimeout: 3000,
}).initialize();
await db.query('PRAGMA synchronous = FULL');
await db.query(
  `CREATE TABLE IF NOT EXISTS "pets" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "name" varchar(255) NOT NULL, "category_id" bigint NOT NULL, "status" varchar(16) CHECK ("status" IN ('available', 'pending', 'sold')))`,
);
await db.query('CREATE INDEX IF NOT EXISTS "IDX_pets_status_id" ON "pets" ("status", "id")');

const decorateProperty = (target, key, ...decorators) => Reflect.decorate(decorators, target.prototype, key);
const decorateMethod = (target, key, paramTypes, decorators, params = []) => {
  Reflect.defineMetadata('design:paramtypes', paramTypes, target.prototype, key);
  params.forEach((decorator, index) => decorator?.(target.prototype, key, index));
  Reflect.decorate(decorators, target.prototype, key, Object.getOwnPropertyDescriptor(target.prototype, key));
};

class ListPetsQuery {}
decorateProperty(
  ListPetsQuery,
  'limit',
  IsOptional(),
  Type(() => Number),
  IsInt(),
  Min(1),
  Max(100),
);
decorateProperty(ListPetsQuery, 'status', IsOptional(), IsIn(STATUSES));
decorateProperty(
  ListPetsQuery,
  'after',
  IsOptional(),
  Type(() => Number),
  IsInt(),
  Min(0),
);

class CreatePetDto {}
decorateProperty(CreatePetDto, 'name', IsString(), Length(1, 255));
decorateProperty(CreatePetDto, 'categoryId', IsInt());
decorateProperty(CreatePetDto, 'status', IsOptional(), IsIn(STATUSES));

const toPet = (row) =>
  row.status === null
    ? { id: row.id, name: row.name, categoryId: row.category_id }
    : { id: row.id, name: row.name, categoryId: row.category_id, status: row.status };

class BearerGuard {
  canActivate(context) {
    const request = context.switchToHttp().getRequest();
    const match = /^bearer +(\S+) *$/i.exec(request.headers.authorization ?? '');
    const digest = match ? createHash('sha256').update(match[1]).digest() : undefined;
    let ok = false;
    for (const key of keys) if (digest && timingSafeEqual(digest, key)) ok = true;
    if (!ok) throw new UnauthorizedException();
    return true;
  }
}

class PetsController {
  async list(query, reply) {
    const limit = query.limit ?? 20;
    const after = query.after ?? 0;
    const rows = query.status
      ? await db.query(
          'SELECT id, name, category_id, status FROM pets WHERE status = ? AND id > ? ORDER BY id LIMIT ?',
          [query.status, after, limit + 1],
        )
      : await db.query('SELECT id, name, category_id, status FROM pets WHERE id > ? ORDER BY id LIMIT ?', [
          after,
          limit + 1,
        ]);
    if (rows.length > limit) {
      rows.length = limit;
      const status = query.status ? `&status=${query.status}` : '';
      reply.header('link', `</v1/pets?limit=${limit}${status}&after=${rows[limit - 1].id}>; rel="next"`);
    }
    return rows.map(toPet);
  }

  async create(body, reply) {
    // TypeORM's sqlite driver answers a plain INSERT with the new row's id, after its commit.
    const id = await db.query('INSERT INTO pets (name, category_id, status) VALUES (?, ?, ?)', [
      body.name,
      body.categoryId,
      body.status ?? null,
    ]);
    reply.header('location', `/v1/pets/${id}`);
    return toPet({ id, name: body.name, category_id: body.categoryId, status: body.status ?? null });
  }

  async get(petId) {
    const rows = await db.query('SELECT id, name, category_id, status FROM pets WHERE id = ?', [petId]);
    if (rows.length === 0) throw new NotFoundException();
    return toPet(rows[0]);
  }
}
Reflect.decorate([Controller('v1/pets')], PetsController);
decorateMethod(PetsController, 'list', [ListPetsQuery, Object], [Get()], [Query(), Res({ passthrough: true })]);
decorateMethod(PetsController, 'create', [CreatePetDto, Object], [Post()], [Body(), Res({ passthrough: true })]);
decorateMethod(
  PetsController,
  'get',
  [Number],
  [
    Get(':petId'),
    Header('deprecation', '@1795219200'),
    Header('sunset', 'Thu, 05 Dec 2030 00:00:00 GMT'),
    Header('link', '</v1/pets>; rel="successor-version"'),
  ],
  [Param('petId', ParseIntPipe)],
);

class HealthController {
  live() {
    return { status: 'ok' };
  }
}
Reflect.decorate([Controller('health')], HealthController);
decorateMethod(HealthController, 'live', [], [Get('live')]);

class AppModule {
  // As the service does: the connection is closed last, so that SQLite checkpoints and removes the WAL.
  onApplicationShutdown() {
    return db.destroy();
  }
}
Reflect.decorate([Module({ controllers: [PetsController, HealthController] })], AppModule);

const app = await NestFactory.create(AppModule, new FastifyAdapter({ bodyLimit: 16 * 1024 }), { logger: ['error'] });
const guard = new BearerGuard();
app.useGlobalGuards({
  canActivate: (context) =>
    context.switchToHttp().getRequest().url.startsWith('/health/') || guard.canActivate(context),
});
const sameHeaders = process.env.REFERENCE_HEADERS ? JSON.parse(process.env.REFERENCE_HEADERS) : undefined;
if (sameHeaders) {
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onRequest', (request, reply, done) => {
      reply.header('x-request-id', randomUUID()).headers(sameHeaders);
      done();
    });
}
app.useGlobalPipes(new ValidationPipe({ transform: true, whitelist: true, forbidNonWhitelisted: true }));
app.enableShutdownHooks();
await app.listen(Number(process.env.PORT ?? 3100), '127.0.0.1');
console.log(`nest-bare listening on ${await app.getUrl()}`);
