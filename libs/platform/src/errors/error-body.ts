import type { FastifyReply } from 'fastify';

/** The one error shape of the contract: `status` always equals the HTTP status. */
export interface ErrorBody {
  code: string;
  message: string;
  status: number;
}

/** The media type of every answer in JSON, errors included. */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/**
 * Answers with `body` through Fastify, its status and media type: every Error answer Fastify sends (the filter's, the
 * router's); those given below Fastify are written in http/edge-responses.ts.
 */
export function sendError(reply: FastifyReply, body: ErrorBody): void {
  void reply.code(body.status).header('content-type', JSON_CONTENT_TYPE).send(body);
}
