// An OTLP/HTTP collector that takes every export and keeps nothing, for the tracing rows of `npm run bench`: it
// runs as a process of its own, so that its work falls on neither the service nor the load generator. Prints its
// port, then serves until it is killed.
import { createServer } from 'node:http';

const server = createServer((request, response) => {
  request.resume();
  request.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
});
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
