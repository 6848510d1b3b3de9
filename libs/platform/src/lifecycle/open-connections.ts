import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** What was last seen of a connection, to tell a quiet or stalled one from a busy one. */
interface Seen {
  openedAt: number;
  /** Bytes read from the client plus bytes the kernel took from us, at `at`. */
  moved: number;
  /** When `moved` last changed (or the connection opened). */
  at: number;
  /** The response in progress on it: from its request's arrival until it is sent (or the connection closes). */
  response?: ServerResponse;
}

const REGISTRIES = new WeakMap<Server, OpenConnections>();

/**
 * The open connections of a server and when a byte last moved on each: the one registry connection shedding and the
 * shutdown read.
 */
export class OpenConnections implements Iterable<Socket> {
  private readonly open = new Map<Socket, Seen>();

  private constructor(server: Server) {
    server.on('connection', (socket: Socket) => {
      const now = Date.now();
      this.open.set(socket, { openedAt: now, moved: 0, at: now });
      socket.once('close', () => this.open.delete(socket));
    });
    server.on('request', (request: IncomingMessage, response: ServerResponse) => {
      const seen = this.open.get(request.socket);
      if (!seen) return;
      seen.response = response;
      const done = () => {
        if (seen.response === response) seen.response = undefined;
      };
      response.once('finish', done);
      response.once('close', done);
    });
  }

  /** The registry of `server`, made (and listening) on first use. */
  static of(server: Server): OpenConnections {
    let registry = REGISTRIES.get(server);
    if (!registry) REGISTRIES.set(server, (registry = new OpenConnections(server)));
    return registry;
  }

  get size(): number {
    return this.open.size;
  }

  [Symbol.iterator](): Iterator<Socket> {
    return this.open.keys();
  }

  /** How long `socket` has been open, at `now`. */
  ageOf(socket: Socket, now: number): number {
    return now - (this.open.get(socket)?.openedAt ?? now);
  }

  /** When a byte last moved on `socket` (read from the client, or taken by the kernel), looking at it `now`. */
  lastMovedAt(socket: Socket, now: number): number {
    const seen = this.open.get(socket);
    if (!seen) return now;
    const moved = socket.bytesRead + socket.bytesWritten - socket.writableLength;
    if (moved !== seen.moved) {
      seen.moved = moved;
      seen.at = now;
    }
    return seen.at;
  }

  /** Closes `socket`, and counts it out at once (its 'close' event comes later). */
  close(socket: Socket): void {
    this.open.delete(socket);
    socket.destroy();
  }

  /** The response in progress on `socket`, if any: its request has come, and its answer is not all sent. */
  responseOn(socket: Socket): ServerResponse | undefined {
    return this.open.get(socket)?.response;
  }
}
