import pino from 'pino';

/**
 * SIGUSR1 would open Node's inspector on 127.0.0.1:9229, unauthenticated: any local user could then run code inside the
 * service and read its keys. A listener of its own keeps Node from doing so; imported right after the compile cache,
 * before the rest of the service loads. To debug, start Node with `--inspect` deliberately.
 */
let said = false;
process.on('SIGUSR1', () => {
  if (said) return;
  said = true;
  pino().warn({ context: 'Signals' }, 'SIGUSR1 ignored: the inspector opens only with --inspect on the command line');
});
