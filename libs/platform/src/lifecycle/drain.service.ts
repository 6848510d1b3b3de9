import { Injectable, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';

/**
 * Whether the service is draining for shutdown. While it drains, every
 * response, including those of requests already in flight, carries
 * `Connection: close`, so that each keep-alive connection ends after its
 * current request instead of holding the shutdown until its idle timeout.
 *
 * An answer given before the request's body was read (a 401 before parsing,
 * a 413 over the size limit) closes its connection too: otherwise Node reads
 * on and discards the rest of the body, and a body that never ends would get
 * a second, unsolicited answer (408) on the same connection later.
 */
@Injectable()
export class Drain implements OnModuleInit {
  private draining = false;

  constructor(private readonly adapterHost: HttpAdapterHost) {}

  get isDraining(): boolean {
    return this.draining;
  }

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    fastify.addHook('onSend', (request, reply, payload, done) => {
      if ((this.draining || !request.raw.complete) && request.raw.httpVersionMajor < 2) {
        reply.header('connection', 'close');
      }
      done(null, payload);
    });
  }

  begin(): void {
    this.draining = true;
  }
}
