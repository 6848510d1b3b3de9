import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import proxyAddr from '@fastify/proxy-addr';
import type { AppConfig } from '../../config/app-config';

/**
 * At most `max` open connections from one address on `server`, so that no client, whatever its key and scopes, holds
 * more than its share of MAX_CONNECTIONS; one more is closed as it opens. A proxy TRUST_PROXY trusts is not counted:
 * its connections carry many clients (its own limits, such as HAProxy's `maxconn`, are theirs).
 */
export function limitPerAddress(
  server: Server,
  max: number,
  trustProxy: AppConfig['trustProxy'],
  onClosed: () => void,
): void {
  const trusted = trustedPeer(trustProxy);
  const open = new Map<string, Set<Socket>>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress;
    if (address === undefined || trusted(address)) return;
    let sockets = open.get(address);
    if (!sockets) open.set(address, (sockets = new Set()));
    // A connection closed a moment ago (shed, say) is destroyed at once but says 'close' later: not counted.
    if (sockets.size >= max) for (const held of sockets) if (held.destroyed) sockets.delete(held);
    if (sockets.size >= max) {
      socket.destroy();
      onClosed();
      return;
    }
    sockets.add(socket);
    socket.once('close', () => {
      sockets.delete(socket);
      if (sockets.size === 0 && open.get(address) === sockets) open.delete(address);
    });
  });
}

/** Whether the peer at `address` is a proxy TRUST_PROXY trusts: any with `true` or a hop count, those it lists. */
function trustedPeer(setting: AppConfig['trustProxy']): (address: string) => boolean {
  if (setting === true || typeof setting === 'number') return () => true;
  if (setting === false || setting.length === 0) return () => false;
  const trust = proxyAddr.compile([...setting]);
  return (address) => trust(address, 0);
}
