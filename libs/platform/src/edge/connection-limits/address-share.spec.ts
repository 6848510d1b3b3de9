import { EventEmitter } from 'node:events';
import { createServer, type Server } from 'node:http';
import { describe, expect, it } from 'vitest';
import { limitPerAddress } from './address-share';

/** A connection as the server's 'connection' event gives it: destroyed at once, 'close' said later, as Node does. */
class Connection extends EventEmitter {
  destroyed = false;
  constructor(readonly remoteAddress: string) {
    super();
  }
  destroy(): void {
    this.destroyed = true;
  }
  saysClose(): void {
    this.emit('close');
  }
}

function serverWithLimit(max: number): { server: Server; refused: () => number } {
  const server = createServer();
  let refused = 0;
  limitPerAddress(server, max, false, () => refused++);
  return { server, refused: () => refused };
}

describe('limitPerAddress', () => {
  it('closes the connection past the share of one address, and counts it', () => {
    const { server, refused } = serverWithLimit(2);
    const connections = ['10.0.0.1', '10.0.0.1', '10.0.0.1', '10.0.0.2'].map((address) => new Connection(address));
    for (const connection of connections) server.emit('connection', connection);
    expect(connections.map((connection) => connection.destroyed)).toEqual([false, false, true, false]);
    expect(refused()).toBe(1);
  });

  it('does not count a connection closed a moment ago that has not said close yet (one just shed)', () => {
    const { server, refused } = serverWithLimit(2);
    const [first, second] = [new Connection('10.0.0.1'), new Connection('10.0.0.1')];
    server.emit('connection', first);
    server.emit('connection', second);
    // Shed: Node's own count of the server's connections drops now; 'close' comes after the next poll.
    first.destroy();
    const next = new Connection('10.0.0.1');
    server.emit('connection', next);
    expect(next.destroyed).toBe(false);
    expect(refused()).toBe(0);
    first.saysClose();
    // Still two open (second, next): one more is past the share.
    const past = new Connection('10.0.0.1');
    server.emit('connection', past);
    expect(past.destroyed).toBe(true);
    expect(refused()).toBe(1);
  });

  it('makes room again once a connection says close', () => {
    const { server } = serverWithLimit(1);
    const first = new Connection('10.0.0.1');
    server.emit('connection', first);
    first.destroy();
    first.saysClose();
    const again = new Connection('10.0.0.1');
    server.emit('connection', again);
    expect(again.destroyed).toBe(false);
  });
});
