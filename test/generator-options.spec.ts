import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const GENERATOR = resolve(__dirname, '../scripts/generate-module.mjs');
const generate = (...args: string[]) => {
  const { status, stdout, stderr } = spawnSync(process.execPath, [GENERATOR, ...args], { encoding: 'utf8' });
  return { status, stdout, stderr };
};

/** What a generation would change: the modules under libs/ and the app module. */
const tree = () => ({
  libs: readdirSync(resolve(__dirname, '../libs')).sort(),
  appModule: readFileSync(resolve(__dirname, '../apps/petstore/src/app.module.ts'), 'utf8'),
  nestCli: readFileSync(resolve(__dirname, '../nest-cli.json'), 'utf8'),
});

/**
 * The generator's options as a newcomer meets them: `--help` lists each with an example, and what it refuses says
 * why and what is allowed, before anything is written (test/slow/generator.e2e-spec.ts runs what it writes).
 */
describe('npm run generate:module, its options', () => {
  it('lists every option it takes, each with an example, on --help, and exits 0', () => {
    const help = generate('--help');
    expect([help.status, help.stderr]).toEqual([0, '']);
    const options = ['--entity', '--path', '--fields', '--depends-on', '--subscribes-to', '--bare', '--no-update'];
    for (const option of [...options, '--no-delete', '--read-model', '--stability', '--help']) {
      expect(help.stdout).toContain(`  ${option}`);
    }
    const examples = help.stdout.split('\n').filter((line) => /^\s+npm run generate:module -- \w/.test(line));
    expect(examples).toHaveLength(11);
    expect(generate('orders', '-h').stdout).toBe(help.stdout);
  });

  it.each([
    [
      ['orders', '--colour', 'red'],
      'unknown option --colour: the options are --entity, --path, --depends-on, --subscribes-to, --fields, --bare, ' +
        '--no-update, --no-delete, --stability, --read-model, --help (npm run generate:module -- --help)',
    ],
    [['tickets', '--fields'], '--fields needs a value: --fields "title:string(1..80) state:enum(open,closed)=open"'],
    [
      ['tickets', '--fields', 'title:text'],
      '--fields: "title:text" is not a field: name:kind, the kinds string, string(1..80), int, int(1..100), int64, ' +
        "enum(a,b,c), ref(module), then ? for a field a create may leave out, or an enum's default after =: " +
        '--fields "title:string(1..80) note:string? status:enum(open,closed)=open"',
    ],
    [
      ['tickets', '--fields', 'state:enum(open,closed)?=open'],
      '--fields: state is optional (?) and has a default (=): a field with a default is never absent',
    ],
    [
      ['tickets', '--fields', 'seats:int(1..3000000000)'],
      "--fields: seats:int(1..3000000000) needs bounds min..max within a 32-bit integer's: int(1..100)",
    ],
    [['tickets', '--fields', 'petId:int64(1..9)'], '--fields: petId:int64 takes no bounds: any int64, exact'],
    [
      ['tickets', '--fields', 'id:string title:string'],
      "--fields: id is the entity's own, an int64 the database assigns: name the field otherwise",
    ],
    [['tickets', '--fields', 'title:string title:string(1..9)'], '--fields: title is given twice'],
    [
      ['tickets', '--fields', 'title:string(9..1)'],
      '--fields: title:string(9..1) needs bounds min..max, 0 <= min <= max <= 10000: string(1..80)',
    ],
    [
      ['tickets', '--fields', 'state:enum(open)'],
      '--fields: state:enum(open) needs two or more distinct lowercase values: enum(open,closed)',
    ],
    [
      ['tickets', '--fields', 'state:enum(open,closed)=lost'],
      "--fields: state's default lost is not one of its values, open, closed",
    ],
    [['tickets', '--fields', 'title:string=x'], '--fields: title: only an enum takes a default'],
    [
      ['tickets', '--bare', '--fields', 'title:string'],
      '--bare writes an entity without fields: give --bare or --fields, not both',
    ],
    [
      ['tickets', '--fields', 'petId:ref'],
      '--fields: petId:ref() needs the module whose aggregate it names: petId:ref(pets)',
    ],
    [['tickets', '--fields', 'petId:ref(kennels)'], '--fields petId:ref(kennels): there is no module libs/kennels'],
    [
      ['tickets', '--fields', 'limitId:ref(rate-limit)'],
      '--fields limitId:ref(rate-limit): rate-limit is a capability (it serves no route), used as it is: import ' +
        '@app/rate-limit',
    ],
    [
      ['tickets', '--fields', 'orderId:ref(store)'],
      "--fields orderId:ref(store): libs/store/src/index.ts exports no facade class (a narrow query class, as pets' " +
        'PetCatalog)',
    ],
    [
      ['counts', '--read-model'],
      '--read-model needs the events it keeps its table from: --read-model --subscribes-to pets.pet-created ' +
        '--subscribes-to store.order-placed',
    ],
    [
      ['counts', '--read-model', '--subscribes-to', 'pets.pet-created', '--fields', 'title:string', '--no-delete'],
      '--read-model writes a module kept by events, with no entity of its own to create: give it --subscribes-to ' +
        '(and --entity, --path, --stability), not --fields, --no-delete',
    ],
    [['orders', '--path'], '--path needs a value: --path store/gift-cards'],
    [['people', '--entity', '--bare'], '--entity needs a value: --entity person'],
    [
      ['orders', '--stability', 'alpha'],
      '--stability needs a level, beta or experimental: --stability beta (a stable module has none)',
    ],
    [['orders', '--depends-on'], '--depends-on needs the name of a module: --depends-on pets'],
    [
      ['bookings', '--depends-on', 'database'],
      '--depends-on database: database is a capability (it serves no route), used as it is: import @app/database',
    ],
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
    ...['user', 'currentUser', 'order', 'group', 'select', 'limit', 'currentDate'].map((field) => [
      ['tickets', '--fields', `${field}:string`],
      `--fields: ${field} would be the column ${field.replace(/([A-Z])/g, '_$1').toLowerCase()}, a keyword of SQL ` +
        '(PostgreSQL or SQLite): name the field otherwise',
    ]),
    ...['constructor', 'toString', 'hasOwnProperty', 'class'].map((field) => [
      ['tickets', '--fields', `${field}:string`],
      `--fields: ${field} is JavaScript's own (every object has it, or the language reserves it): name the field otherwise`,
    ]),
    [
      ['tickets', '--fields', 'userId:int64 userID:int64'],
      '--fields: userId and userID would both be the column user_id: keep one, or name it otherwise',
    ],
    ...['int(..5)', 'int(0x1..5)', 'int(1..1e3)', 'int(1..2..3)', 'string(1..)', 'string(1.5..9)'].map((kind) => [
      ['tickets', '--fields', `n:${kind}`],
      `--fields: n:${kind} needs two decimal bounds min..max, such as ${kind.split('(')[0]}(1..80)`,
    ]),
    ...[
      ['store-orders', 'store_orders', 'which libs/store has already'],
      ['store-inventory-pets', 'store_inventory_pets', 'which libs/store has already'],
      ['events-subscriptions', 'events_subscriptions', 'which libs/events has already'],
      ['auth-api-keys', 'auth_api_keys', 'which libs/auth has already'],
      ['idempotency-keys', 'idempotency_keys', 'which libs/idempotency has already'],
      ['migrations', 'migrations', 'where TypeORM records the migrations run'],
      ['groups', 'groups', 'a keyword of SQL (PostgreSQL or SQLite)'],
    ].map(([module, table, owner]) => [
      [module],
      `${module} would have the table ${table}, ${owner}: choose another name`,
    ]),
  ])('refuses %j, saying why and what is allowed, and writes nothing', (args, message) => {
    const before = tree();
    expect(generate(...args)).toEqual({ status: 1, stdout: '', stderr: `generate:module: ${message}\n` });
    expect(tree()).toEqual(before);
  });
});
