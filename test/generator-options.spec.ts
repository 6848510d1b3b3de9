import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const GENERATOR = resolve(__dirname, '../scripts/generate-module.mjs');
const generate = (...args: string[]) => {
  const { status, stdout, stderr } = spawnSync(process.execPath, [GENERATOR, ...args], { encoding: 'utf8' });
  return { status, stdout, stderr };
};

/**
 * The generator's options as a newcomer meets them: `--help` lists each with an example, and what it refuses says
 * why and what is allowed, before anything is written (test/slow/generator.e2e-spec.ts runs what it writes).
 */
describe('npm run generate:module, its options', () => {
  it('lists every option it takes, each with an example, on --help, and exits 0', () => {
    const help = generate('--help');
    expect([help.status, help.stderr]).toEqual([0, '']);
    const options = ['--entity', '--path', '--depends-on', '--subscribes-to', '--bare', '--no-update', '--no-delete'];
    for (const option of [...options, '--stability', '--help']) {
      expect(help.stdout).toContain(`  ${option}`);
    }
    const examples = help.stdout.split('\n').filter((line) => /^\s+npm run generate:module -- \w/.test(line));
    expect(examples).toHaveLength(8);
    expect(generate('orders', '-h').stdout).toBe(help.stdout);
  });

  it.each([
    [
      ['orders', '--colour', 'red'],
      'unknown option --colour: the options are --entity, --path, --depends-on, --subscribes-to, --bare, --no-update, ' +
        '--no-delete, --stability, --help (npm run generate:module -- --help)',
    ],
    [['orders', '--path'], '--path needs a value: --path store/gift-cards'],
    [['people', '--entity', '--bare'], '--entity needs a value: --entity person'],
    [
      ['orders', '--stability', 'alpha'],
      '--stability needs a level, beta or experimental: --stability beta (a stable module has none)',
    ],
    [['orders', '--depends-on'], '--depends-on needs the name of a module: --depends-on pets'],
    [['pets'], 'libs/pets exists already'],
    [
      ['orders'],
      'orders would declare names another module has (the document and the error catalogue hold each once): ' +
        'libs/store has the schema names NewOrder, Order, OrderStatus; libs/store has the error codes ' +
        'invalid_order, order_not_found. Give its entity another name with --entity',
    ],
    [
      ['gadgets', '--bare', '--no-delete'],
      '--bare has no PATCH or DELETE to leave out: give --bare alone, or --no-update / --no-delete without it',
    ],
  ])('refuses %j, saying why and what is allowed, and writes nothing', (args, message) => {
    expect(generate(...args)).toEqual({ status: 1, stdout: '', stderr: `generate:module: ${message}\n` });
  });
});
