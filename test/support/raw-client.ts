import { connect, type Socket } from 'node:net';
import { waitFor } from './wait-for';

/** A raw TCP client, to misbehave as real HTTP clients do not. */
export function open(port: number): Promise<{ socket: Socket; received: () => string; closed: Promise<void> }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk) => (text += chunk));
    socket.on('error', () => undefined);
    const closed = new Promise<void>((done) => socket.on('close', () => done()));
    socket.once('connect', () => resolve({ socket, received: () => text, closed }));
    socket.once('error', reject);
  });
}

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** The HTTP/1.1 responses in `text`, in order (interim ones such as 100 Continue included). */
export function parseResponses(text: string): RawResponse[] {
  const responses: RawResponse[] = [];
  let rest = text;
  while (rest.startsWith('HTTP/1.1 ')) {
    const end = rest.indexOf('\r\n\r\n');
    if (end === -1) break;
    const [statusLine, ...lines] = rest.slice(0, end).split('\r\n');
    const headers = Object.fromEntries(
      lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
    );
    const length = Number(headers['content-length'] ?? 0);
    if (rest.length < end + 4 + length) break; // its body is still on its way
    responses.push({ status: Number(statusLine.split(' ')[1]), headers, body: rest.slice(end + 4, end + 4 + length) });
    rest = rest.slice(end + 4 + length);
  }
  return responses;
}

/**
 * Sends `raw`, and resolves with the responses that came back once the server
 * closed the connection, or, given `count`, once that many complete responses
 * have come (this side then closes it). Fails after a deadline.
 */
export async function exchange(port: number, raw: string | Buffer, count?: number): Promise<RawResponse[]> {
  const client = await open(port);
  client.socket.write(raw);
  try {
    if (count === undefined) await waitFor(() => client.socket.destroyed, 'the server to close the connection');
    else await waitFor(() => parseResponses(client.received()).length >= count, `${count} response(s)`);
  } finally {
    client.socket.destroy();
  }
  return parseResponses(client.received());
}
