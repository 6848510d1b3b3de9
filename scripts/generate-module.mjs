#!/usr/bin/env node
/**
 * npm run generate:module -- <name> [--entity <singular>] [--path <route>] [--fields "<field> ..."]
 *   [--depends-on <module>]... [--subscribes-to <event>]... [--bare] [--no-update] [--no-delete] [--read-model]
 *   [--stability beta|experimental]
 *
 * Writes a new feature module under libs/<name>/ from scripts/module-template/,
 * at the standard pets keeps (a neutral skeleton: an entity with int64 ids kept
 * exact and a closed status value object, its repository port and a repository
 * of statements sent through the platform's SqlClient with a migration, an
 * application service, a controller with a keyset-paged list, a create safe to
 * retry (`@Idempotent()`), get, PATCH and DELETE, class-validator DTOs, unit
 * tests, an e2e suite on both databases and the module's README), then adds its
 * Nest module to the app module's FEATURES (apps/petstore/src/app.module.ts). Its routes are served at /v1/<name>, or at
 * /v1/<route> with --path (`shop/orders`). With --fields, the entity has the fields named (scripts/module-fields.mjs
 * says which, and how the template's `<each field>` blocks write them) instead of the sample's name and status. With --bare, the entity has an id
 * and nothing else, with create and get only: the template's `<sample>` blocks
 * are left out and its `<bare>` ones kept; --no-update and --no-delete leave out its `<update>` (PATCH) and `<delete>`
 * blocks, and the names only they imported. With --depends-on pets it also writes, for each facade pets exports (its
 * PetCatalog), the new module's own port in domain/ with the facade's methods
 * and its adapter in infrastructure/, imports PetsModule and provides the port
 * (docs/extending.md, "Calls between modules"). With --subscribes-to
 * pets.pet-created it also writes a subscription to that event (its type taken from the publisher's index.ts, as the
 * lint gate allows), whose handler records each event heard in a table of the module's own, once per event, with
 * that table's record, migration and e2e test (docs/extending.md, "Reacting to another module"). With --stability beta
 * (or experimental) every operation of its controller is marked `@Stability('beta')`: the document and the docs page
 * say so (the contract, 1.4). With --read-model it is written from
 * scripts/read-model-template/ instead: a read model whose subscriptions (one per --subscribes-to, its template's
 * `<each event>` blocks) count each event under a key in its one table, served by a paged GET, with no create.
 * A field `petId:ref(pets)` makes it depend on pets as --depends-on does, with a port of `exists()` alone when
 * --depends-on does not name pets too.
 * The result compiles, passes `npm run lint` and its own tests as it is
 * (test/slow/generator.e2e-spec.ts proves it).
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { createRequire } from 'node:module';
import { SAMPLE_FIELDS, SQL_KEYWORDS, parseFields, perFieldFiles, writeEach, writeFields } from './module-fields.mjs';

const ROOT = resolve(import.meta.dirname, '..');
/** TypeScript's parser, loaded when a source is first parsed: an option refused before that exits without its 0.3 s. */
let loadedTypeScript;
const typescript = () => (loadedTypeScript ??= createRequire(import.meta.url)('typescript'));
const APP_MODULE = join(ROOT, 'apps/petstore/src/app.module.ts');
const NEST_CLI = join(ROOT, 'nest-cli.json');
const KEBAB = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;
/** The levels `@Stability()` of @app/stability takes; a stable operation has none. */
const STABILITY_LEVELS = ['beta', 'experimental'];
const RESERVED = new Set(
  (
    'break case catch class const continue debugger default delete do else enum export extends false finally for ' +
    'function if import in instanceof let new null package private protected public return static super switch this ' +
    'throw true try typeof var void while with yield await implements interface'
  ).split(' '),
);

function fail(message) {
  console.error(`generate:module: ${message}`);
  process.exit(1);
}

/** What `--help` prints: every option, with an example. */
const HELP = `npm run generate:module -- <name> [options]

Writes a feature module under libs/<name>/ (a kebab-case plural: orders, gift-cards) at the platform's standard, and
adds its Nest module to apps/petstore/src/app.module.ts. Its output compiles, passes npm run lint and its own tests as it is.

Options:
  --entity <singular>        the entity's name when the singular of <name> is not plain
                               npm run generate:module -- people --entity person
  --path <route>             serve it at /v1/<route> instead of /v1/<name>
                               npm run generate:module -- gift-cards --path store/gift-cards
  --depends-on <module>      a port of its own to each facade <module> exports, its adapter, <module>'s Nest module imported
                             (repeatable)
                               npm run generate:module -- orders --depends-on pets
  --subscribes-to <event>    a subscription to another module's event, recording each in a table of its own
                             (repeatable)
                               npm run generate:module -- audits --subscribes-to pets.pet-created
  --fields "<field> ..."     the entity's fields, each name:kind, instead of the sample's name and status: the
                             kinds string(min..max) (string alone: 1..255), int(min..max) (int alone: 32 bits),
                             int64 (exact past 2^53), enum(a,b,c) and ref(module) (the id of another module's
                             aggregate, checked through its facade: 422 when it names none); then ? for a field
                             a create may leave out (a PATCH of null clears it), or an enum's default after =;
                             each through every layer, with its tests
                               npm run generate:module -- tickets --fields "title:string(1..80) note:string? state:enum(open,closed)=open"
                               npm run generate:module -- purchases --fields "petId:ref(pets) quantity:int(1..100)"
  --bare                     an id, create and get only: none of the sample fields, no list, PATCH or DELETE
                               npm run generate:module -- widgets --bare
  --no-update                no PATCH: its things are never changed once made (a ledger's entries)
                               npm run generate:module -- receipts --no-update
  --no-delete                no DELETE: its things are never removed (kept for the record)
                               npm run generate:module -- invoices --no-update --no-delete
  --read-model               a module its subscriptions keep (each event counted under its name, once) and a paged
                             GET serves: no create, no entity table; with --subscribes-to, one or more
                               npm run generate:module -- pet-activity --entity activity --read-model --subscribes-to pets.pet-created --subscribes-to store.order-placed
  --stability <level>        every operation beta or experimental (@Stability()); stable without it
                               npm run generate:module -- bookings --stability beta
  --help                     this text

docs/extending.md says what comes next.`;

/** The options parseArguments knows, as an unknown one's refusal lists them. */
const OPTIONS = [
  '--entity',
  '--path',
  '--depends-on',
  '--subscribes-to',
  '--fields',
  '--bare',
  '--no-update',
  '--no-delete',
  '--stability',
  '--read-model',
  '--help',
];

/** The value an option takes, or a refusal saying what it needs. */
function valueOf(args, i, example) {
  const value = args[i + 1];
  if (value === undefined || value.startsWith('--')) fail(`${args[i]} needs a value: ${args[i]} ${example}`);
  return value;
}

function parseArguments(args) {
  if (args.includes('--help') || args.includes('-h')) {
    console.log(HELP);
    process.exit(0);
  }
  const positional = [];
  let entity;
  let path;
  let fieldSpec;
  const dependsOn = [];
  const subscribesTo = [];
  let bare = false;
  const without = { update: false, delete: false };
  let stability;
  let readModel = false;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--entity') entity = valueOf(args, i++, 'person');
    else if (args[i] === '--path') path = valueOf(args, i++, 'store/gift-cards');
    else if (args[i] === '--fields')
      fieldSpec = valueOf(args, i++, '"title:string(1..80) state:enum(open,closed)=open"');
    else if (args[i] === '--depends-on') {
      const module = args[++i];
      if (module === undefined || module.startsWith('--'))
        fail('--depends-on needs the name of a module: --depends-on pets');
      if (!dependsOn.includes(module)) dependsOn.push(module);
    } else if (args[i] === '--subscribes-to') {
      const event = args[++i];
      if (event === undefined || !/^[a-z][a-z0-9-]*\.[a-z][a-z0-9-]*$/.test(event))
        fail('--subscribes-to needs the name of an event: --subscribes-to pets.pet-created');
      if (!subscribesTo.includes(event)) subscribesTo.push(event);
    } else if (args[i] === '--stability') {
      stability = args[++i];
      if (!STABILITY_LEVELS.includes(stability)) {
        fail(
          `--stability needs a level, ${STABILITY_LEVELS.join(' or ')}: --stability beta (a stable module has none)`,
        );
      }
    } else if (args[i] === '--bare') bare = true;
    else if (args[i] === '--read-model') readModel = true;
    else if (args[i] === '--no-update') without.update = true;
    else if (args[i] === '--no-delete') without.delete = true;
    else if (args[i].startsWith('-')) {
      fail(`unknown option ${args[i]}: the options are ${OPTIONS.join(', ')} (npm run generate:module -- --help)`);
    } else positional.push(args[i]);
  }
  if (positional.length !== 1) {
    fail(
      'usage: npm run generate:module -- <name> [--entity <singular>] [--path <route>] [--fields "<field> ..."] ' +
        '[--depends-on <module>]... [--subscribes-to <event>]... [--bare] [--no-update] [--no-delete] ' +
        '[--read-model] [--stability beta|experimental]   ' +
        '(e.g. purchases --path shop/purchases --depends-on pets; ' +
        'every option: --help)',
    );
  }
  if (bare && (without.update || without.delete)) {
    fail('--bare has no PATCH or DELETE to leave out: give --bare alone, or --no-update / --no-delete without it');
  }
  if (bare && fieldSpec !== undefined)
    fail('--bare writes an entity without fields: give --bare or --fields, not both');
  if (readModel) {
    const others = [
      ...(fieldSpec === undefined ? [] : ['--fields']),
      ...(bare ? ['--bare'] : []),
      ...(without.update ? ['--no-update'] : []),
      ...(without.delete ? ['--no-delete'] : []),
      ...(dependsOn.length === 0 ? [] : ['--depends-on']),
    ];
    if (others.length > 0) {
      fail(
        `--read-model writes a module kept by events, with no entity of its own to create: give it --subscribes-to ` +
          `(and --entity, --path, --stability), not ${others.join(', ')}`,
      );
    }
    if (subscribesTo.length === 0) {
      fail(
        '--read-model needs the events it keeps its table from: --read-model --subscribes-to pets.pet-created ' +
          '--subscribes-to store.order-placed',
      );
    }
  }
  return { name: positional[0], entity, path, fieldSpec, dependsOn, subscribesTo, bare, without, stability, readModel };
}

/** English plural to singular for the usual cases; anything else needs --entity. */
function singular(plural) {
  if (/ies$/.test(plural)) return plural.replace(/ies$/, 'y');
  // boxes, classes, statuses (but purchases, houses and cases end in an e of their own)
  if (/(ss|x|z|ch|sh|[^aeiou]us)es$/.test(plural)) return plural.replace(/es$/, '');
  if (/[^s]s$/.test(plural)) return plural.replace(/s$/, '');
  return undefined;
}

function names(kebab) {
  const words = kebab.split('-');
  const pascal = words.map((word) => word[0].toUpperCase() + word.slice(1)).join('');
  const snake = words.join('_');
  return { kebab, pascal, camel: pascal[0].toLowerCase() + pascal.slice(1), snake, upper: snake.toUpperCase() };
}

const {
  name,
  entity = singular(name),
  path: route = name,
  fieldSpec = SAMPLE_FIELDS,
  dependsOn,
  subscribesTo,
  bare,
  without,
  stability,
  readModel,
} = parseArguments(process.argv.slice(2));
/** The template this module is written from: an entity's, or a read model's. */
const TEMPLATE = join(ROOT, readModel ? 'scripts/read-model-template' : 'scripts/module-template');
if (!KEBAB.test(name)) fail(`"${name}" is not a kebab-case name such as orders or gift-cards`);
if (!entity) fail(`cannot tell the singular of "${name}": give it with --entity <singular>`);
if (!KEBAB.test(entity)) fail(`"${entity}" is not a kebab-case name such as order or gift-card`);
if (!route.split('/').every((segment) => KEBAB.test(segment))) {
  fail(`"${route}" is not a path of kebab-case segments such as orders or store/orders`);
}
if (name === 'platform' || existsSync(join(ROOT, 'libs', name))) fail(`libs/${name} exists already`);
refuseRoutesServed(route);
const plural = names(name);
const one = names(entity);
for (const word of [plural.camel, one.camel]) {
  if (RESERVED.has(word)) fail(`"${word}" is a reserved word in TypeScript: choose another name or --entity`);
}
refuseTableTaken(plural.snake);

/**
 * Refuses a table name that is a keyword of SQL or that the service has already: a module's entity under libs/
 * (`@Entity({ name })`), a table a migration made, or TypeORM's own `migrations`. The service would exit at start
 * ("table ... already exists").
 */
function refuseTableTaken(table) {
  if (SQL_KEYWORDS.has(table)) {
    fail(`${name} would have the table ${table}, a keyword of SQL (PostgreSQL or SQLite): choose another name`);
  }
  const owners = new Map([['migrations', 'where TypeORM records the migrations run']]);
  for (const library of readdirSync(join(ROOT, 'libs'))) {
    const src = join(ROOT, 'libs', library, 'src');
    if (!existsSync(src)) continue;
    for (const { text } of sources(src)) {
      for (const [, entity, created] of text.matchAll(/@Entity\(\{\s*name:\s*'(\w+)'|CREATE TABLE "(\w+)"/g)) {
        owners.set(entity ?? created, `which libs/${library} has already`);
      }
    }
  }
  const owner = owners.get(table);
  if (owner) fail(`${name} would have the table ${table}, ${owner}: choose another name`);
}

/**
 * Refuses a route some module under libs/ serves already: the module's `/v1/<route>` and `/v1/<route>/{id}` would be
 * declared twice, and the service would refuse to start ("Method 'GET' already declared for route"). Routes are read
 * from each module's controllers (`@Controller('<path>')` and the methods' paths), a parameter being any parameter.
 */
function refuseRoutesServed(wanted) {
  const shape = (path) =>
    path
      .split('/')
      .filter(Boolean)
      .map((segment) => (segment.startsWith(':') ? ':' : segment))
      .join('/');
  const mine = new Set([shape(wanted), shape(`${wanted}/:id`)]);
  for (const library of readdirSync(join(ROOT, 'libs'))) {
    const http = join(ROOT, 'libs', library, 'src', 'http');
    if (!existsSync(http)) continue;
    for (const file of readdirSync(http).filter((entry) => entry.endsWith('.controller.ts'))) {
      const source = readFileSync(join(http, file), 'utf8');
      const prefix = /@Controller\(\s*'([^']*)'/.exec(source)?.[1];
      if (prefix === undefined) continue;
      for (const [, method, path = ''] of source.matchAll(/@(Get|Post|Put|Patch|Delete)\(\s*(?:'([^']*)')?/g)) {
        const served = shape(`${prefix}/${path}`);
        if (mine.has(served)) {
          fail(
            `--path ${wanted}: libs/${library} serves ${method.toUpperCase()} /v1/${served.replace(/:/g, '{id}')} ` +
              `already (libs/${library}/src/http/${file}): choose a path no module serves (without --path, /v1/${name})`,
          );
        }
      }
    }
  }
}

/** "an order", "a pet", "a user", "an hour": the article before the entity's name in the generated prose. */
function articleOf(word) {
  if (/^(u[bcdfgklnprstvz][aeiouy]|eu|uni|one|once)/.test(word)) return 'a';
  if (/^(hour|honest|honou?r|heir)/.test(word)) return 'an';
  return /^[aeiou]/.test(word) ? 'an' : 'a';
}
/** Types a port may take from a facade's signature: the language's own, nothing of the other module. */
const PORTABLE_TYPES = new Set(
  'Promise boolean bigint number string void undefined null readonly Array ReadonlyArray Record unknown true false'.split(
    ' ',
  ),
);

/**
 * What `module` offers another module: its Nest module and the facades its
 * index.ts exports (each class but the Nest module), with each facade's public
 * methods as a port can declare them. A method whose signature names a type of
 * that module is left out: the consumer's port speaks its own language.
 */
function facadesOf(module, option = `--depends-on ${module}`) {
  const index = join(ROOT, 'libs', module, 'src/index.ts');
  if (module === name) fail(`${option}: a module cannot depend on itself`);
  if (!existsSync(index)) fail(`${option}: there is no module libs/${module}`);
  const http = join(ROOT, 'libs', module, 'src/http');
  if (!existsSync(http) || !readdirSync(http).some((file) => file.endsWith('.controller.ts'))) {
    fail(`${option}: ${module} is a capability (it serves no route), used as it is: import @app/${module}`);
  }
  const exported = [...readFileSync(index, 'utf8').matchAll(/^export \{ ([^}]+) \}(?: from '(\.[^']+)')?;$/gm)];
  const names = exported.flatMap(([, list, from]) => list.split(',').map((n) => ({ name: n.trim(), from })));
  const nestModule = names.find((exported) => /Module$/.test(exported.name))?.name;
  if (!nestModule) fail(`${option}: libs/${module}/src/index.ts exports no Nest module to import`);
  const facades = names
    .filter((exported) => exported.from && exported.name !== nestModule)
    .map((exported) => ({ ...exported, file: join(ROOT, 'libs', module, 'src', `${exported.from}.ts`) }))
    .filter(({ file, name: className }) => existsSync(file) && classIn(file, className))
    .map(({ file, name: className }) => ({ name: className, ...methodsOf(classIn(file, className)) }));
  if (facades.length === 0) {
    fail(`${option}: libs/${module}/src/index.ts exports no facade class (a narrow query class, as pets' PetCatalog)`);
  }
  return { module, nestModule, facades };
}

function classIn(file, className) {
  const ts = typescript();
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  return source.statements.find((node) => ts.isClassDeclaration(node) && node.name?.text === className);
}

function methodsOf(declaration) {
  const ts = typescript();
  const methods = [];
  const leftOut = [];
  for (const member of declaration.members) {
    if (!ts.isMethodDeclaration(member) || !ts.isIdentifier(member.name)) continue;
    const modifiers = ts.getModifiers(member) ?? [];
    if (
      modifiers.some((m) =>
        [ts.SyntaxKind.PrivateKeyword, ts.SyntaxKind.ProtectedKeyword, ts.SyntaxKind.StaticKeyword].includes(m.kind),
      )
    )
      continue;
    const parameters = member.parameters.map((parameter) => parameter.getText());
    const returns = member.type?.getText();
    const named = [...parameters, returns ?? ''].join(' ').match(/\b[A-Za-z_]\w*\b/g) ?? [];
    const parameterNames = member.parameters.map((parameter) => parameter.name.getText());
    if (!returns || named.some((word) => !PORTABLE_TYPES.has(word) && !parameterNames.includes(word))) {
      leftOut.push(member.name.text);
      continue;
    }
    methods.push({ name: member.name.text, parameters, arguments: parameterNames, returns });
  }
  return { methods, leftOut };
}

/** The entity's fields, as the template writes them (scripts/module-fields.mjs). */
const fields = parseFields(fieldSpec, fail);
const refs = fields.filter((field) => field.ref);

/**
 * Each module --depends-on names, and each a reference field names (`petId:ref(pets)`): a module named by a reference
 * only gets a port with the one method a reference asks, `exists(id)`.
 */
const dependencies = [
  ...dependsOn.map((module) => facadesOf(module)),
  ...[...new Set(refs.map((field) => field.ref.module))]
    .filter((module) => !dependsOn.includes(module))
    .map((module) => {
      const field = refs.find((each) => each.ref.module === module);
      return askingExists(facadesOf(module, `--fields ${field.name}:ref(${module})`));
    }),
];
for (const field of refs)
  refer(
    field,
    dependencies.find((dependency) => dependency.module === field.ref.module),
  );

/** The facade of `dependency` that answers `exists(id: bigint): Promise<boolean>`, what a reference field asks. */
function existsFacadeOf({ module, facades }) {
  const facade = facades.find((each) =>
    each.methods.some(
      (method) => method.name === 'exists' && method.parameters.length === 1 && method.returns === 'Promise<boolean>',
    ),
  );
  if (!facade) {
    fail(
      `--fields: a ref(${module}) is checked through a facade of ${module} with exists(id: bigint): Promise<boolean>, ` +
        `and libs/${module}/src/index.ts exports none (pets' PetCatalog has one)`,
    );
  }
  return facade;
}

/** `dependency` with only the facade a reference asks, and of it only `exists`. */
function askingExists(dependency) {
  const facade = existsFacadeOf(dependency);
  const exists = facade.methods.filter((method) => method.name === 'exists');
  return { ...dependency, facades: [{ ...facade, methods: exists, leftOut: [] }] };
}

/** A reference field given what the template writes of it: its module's port, and where that module's create is. */
function refer(field, dependency) {
  const facade = existsFacadeOf(dependency);
  const others = facade.methods.filter((method) => method.name !== 'exists');
  Object.assign(field.ref, {
    port: `${facade.name}Port`,
    portKebab: kebabOf(facade.name),
    path: `/v1/${createRouteOf(field.ref.module)}`,
    otherMethods: others
      .map((method) => `\n  ${method.name}(): ${method.returns} {\n    throw new Error('not asked in this test');\n  }`)
      .join('\n'),
  });
}

/**
 * The path (under /v1) of `module`'s create, a `@Post()` without a path of its own: the generated tests make the
 * records a reference names through it.
 */
function createRouteOf(module) {
  const http = join(ROOT, 'libs', module, 'src', 'http');
  const creates = (existsSync(http) ? readdirSync(http) : [])
    .filter((file) => file.endsWith('.controller.ts'))
    .map((file) => readFileSync(join(http, file), 'utf8'))
    .filter((source) => /@Post\(\)/.test(source))
    .map((source) => /@Controller\(\s*'([^']*)'/.exec(source)?.[1])
    .filter((prefix) => prefix !== undefined);
  if (creates.length !== 1) {
    fail(
      `--fields: a ref(${module}) is tested with records made through ${module}'s create (a @Post() of a controller), ` +
        `and libs/${module}/src/http has ${creates.length === 0 ? 'none' : creates.length}`,
    );
  }
  return creates[0];
}

/** PetCatalog as a file's name: pet-catalog. */
function kebabOf(pascal) {
  return pascal.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();
}

/**
 * The event named `event` (`pets.pet-created`): the type its publisher's index.ts exports from a `*.event.ts` file
 * that declares that name, the only thing of the publisher a subscriber takes (`import type`: nothing of it runs).
 */
function eventTypeOf(event) {
  const [module, short] = event.split('.');
  const index = join(ROOT, 'libs', module, 'src/index.ts');
  if (module === name) fail(`--subscribes-to ${event}: a module does not subscribe to its own events`);
  if (!existsSync(index)) fail(`--subscribes-to ${event}: there is no module libs/${module}`);
  const exported = [...readFileSync(index, 'utf8').matchAll(/^export type \{ (\w+) \} from '(\.[^']+\.event)';$/gm)];
  const found = exported.find(([, , from]) =>
    readFileSync(join(ROOT, 'libs', module, 'src', `${from}.ts`), 'utf8').includes(`'${event}'`),
  );
  if (!found) {
    fail(
      `--subscribes-to ${event}: libs/${module}/src/index.ts exports no event type named '${event}' from a *.event.ts file`,
    );
  }
  return { event, module, type: found[1], short: names(short) };
}

const subscriptions = subscribesTo.map(eventTypeOf);

const article = articleOf(one.kebab);
const prose = one.kebab.replaceAll('-', ' ');

const tokens = {
  a_thing: `${article} ${prose}`,
  A_thing: `${article[0].toUpperCase()}${article.slice(1)} ${prose}`,
  'things-kebab': plural.kebab,
  'thing-kebab': one.kebab,
  things_snake: plural.snake,
  thing_snake: one.snake,
  Things: plural.pascal,
  Thing: one.pascal,
  things: plural.camel,
  thing: one.camel,
  // In prose: "ledger entry" where the code has ledgerEntry.
  thing_words: prose,
  THINGS: plural.upper,
  THING: one.upper,
  TIMESTAMP: String(Date.now()),
  route,
  // A read model's first event, as an example of a key it counts under.
  first_event: subscriptions[0]?.event ?? '',
};
const fill = (text) =>
  text.replace(
    /__(things-kebab|thing-kebab|things_snake|thing_snake|thing_words|a_thing|A_thing|Things|Thing|things|thing|THINGS|THING|TIMESTAMP|route|first_event)__/g,
    (_, token) => tokens[token],
  );

/** A line that opens or closes a block of the template: `// <sample>`, `// </bare>`, `<!-- <update> -->`. */
const BLOCK_MARK = /^\s*(?:\/\/|<!--)\s*<(\/?)(sample|bare|update|delete|refs|no refs)>\s*(?:-->)?\s*$/;
/**
 * Whether this module keeps each kind of block: `<sample>` for a full one, `<bare>` for a bare one, `<update>` (PATCH)
 * and `<delete>` unless left out, `<refs>` when a field names another module's aggregate and `<no refs>` otherwise.
 */
const KEEPS = {
  sample: !bare,
  bare,
  update: !without.update,
  delete: !without.delete,
  refs: refs.length > 0,
  'no refs': refs.length === 0,
};

/** The template's text for this module: the lines of the blocks it keeps (an `<update>` block sits in a `<sample>` one). */
function select(text) {
  const kept = [];
  const open = [];
  for (const line of text.split('\n')) {
    const mark = BLOCK_MARK.exec(line);
    if (mark && mark[1]) open.pop();
    else if (mark) open.push(mark[2]);
    else if (open.every((block) => KEEPS[block])) kept.push(line);
  }
  return withoutUnusedImports(kept.join('\n'));
}

/**
 * `text` without the names its imports bring that nothing else in it uses (what a left-out block used: `Patch`,
 * `Update...Dto`), and without an import left with none; Prettier lays out what remains.
 */
function withoutUnusedImports(text) {
  return text.replace(/^import (type )?\{([^}]*)\} from ('[^']+');\n/gm, (statement, type = '', list, from) => {
    const rest = text.replace(statement, '');
    const used = list
      .split(',')
      .map((name) => name.trim())
      .filter(
        (name) =>
          name &&
          new RegExp(
            `\\b${name
              .replace(/^type /, '')
              .split(/\\s+as\\s+/)
              .pop()}\\b`,
          ).test(rest),
      );
    return used.length === 0 ? '' : `import ${type}{ ${used.join(', ')} } from ${from};\n`;
  });
}

/**
 * A read model's events, as its template's `<each event>` blocks write them: `__event__` (pets.pet-created),
 * `__Event__` (its type, PetCreated), `__eventModule__` (pets), `__event-kebab__` (pet-created) and `__times__` (its
 * place among them, from 1).
 */
const eventTokens = subscriptions.map(({ event, module, type, short }, n) => ({
  event,
  Event: type,
  eventModule: module,
  'event-kebab': short.kebab,
  times: String(n + 1),
}));

/** A template's text as this module has it: its names, its fields and its events written, the blocks it keeps. */
function render(text) {
  return select(writeEach(writeFields(fill(text), fields, one), 'each event', eventTokens));
}

/** Every `.ts` file under `folder`, with its text. */
function sources(folder) {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.ts(\.tpl)?$/.test(file))
    .map((file) => ({ file: join(folder, file), text: readFileSync(join(folder, file), 'utf8') }));
}

/** The OpenAPI schema names (`@ApiSchema({ name })`, `enumName`) and error codes (`*_ERROR_CODES`) a text declares. */
function declaredNames(text) {
  const schemas = [...text.matchAll(/(?:@ApiSchema\(\{\s*name|enumName):\s*'(\w+)'/g)].map((match) => match[1]);
  const codes = [...text.matchAll(/_ERROR_CODES = \{([^}]*)\}/g)].flatMap(([, body]) =>
    [...body.matchAll(/:\s*'([a-z0-9_]+)'/g)].map((match) => match[1]),
  );
  return { schemas, codes };
}

/**
 * Refuses a module whose schema names or error codes another module declares: the OpenAPI document holds one schema
 * by a name, and the error catalogue one meaning by a code, so the service would refuse to start (a generated
 * `orders` beside the store, whose `Order` and `order_not_found` are its own).
 */
function refuseNamesTaken() {
  const mine = sources(TEMPLATE).flatMap(({ file, text }) =>
    perFieldFiles(file, fields, one).map((each) => declaredNames(render(each.fill(text)))),
  );
  const wanted = new Set(mine.flatMap(({ schemas, codes }) => [...schemas, ...codes]));
  const taken = [];
  for (const library of readdirSync(join(ROOT, 'libs'))) {
    const src = join(ROOT, 'libs', library, 'src');
    if (!existsSync(src)) continue;
    const theirs = sources(src).map(({ text }) => declaredNames(text));
    const schemas = [...new Set(theirs.flatMap((names) => names.schemas))]
      .filter((schema) => wanted.has(schema))
      .sort();
    const codes = [...new Set(theirs.flatMap((names) => names.codes))].filter((code) => wanted.has(code)).sort();
    if (schemas.length > 0) taken.push(`libs/${library} has the schema names ${schemas.join(', ')}`);
    if (codes.length > 0) taken.push(`libs/${library} has the error codes ${codes.join(', ')}`);
  }
  if (taken.length > 0) {
    fail(
      `${name} would declare names another module has (the document and the error catalogue hold each once): ` +
        `${taken.join('; ')}. Give its entity another name with --entity`,
    );
  }
}
refuseNamesTaken();

const target = join(ROOT, 'libs', name);
// Whatever fails from here on (a refusal found while writing, a crash, Prettier) leaves the tree as it was: the new
// module's folder removed, the app module and nest-cli.json as they stood.
const appModuleBefore = readFileSync(APP_MODULE, 'utf8');
const nestCliBefore = readFileSync(NEST_CLI, 'utf8');
process.on('exit', (code) => {
  if (code === 0) return;
  rmSync(target, { recursive: true, force: true });
  writeFileSync(APP_MODULE, appModuleBefore);
  writeFileSync(NEST_CLI, nestCliBefore);
  console.error(
    `generate:module: nothing was written (libs/${name} removed, ${relative(ROOT, APP_MODULE)} and nest-cli.json restored)`,
  );
});
const written = [];
const copy = (folder) => {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const source = join(folder, entry.name);
    if (entry.isDirectory()) {
      copy(source);
      continue;
    }
    for (const each of perFieldFiles(relative(TEMPLATE, source), fields, one)) {
      const destination = join(target, fill(each.path).replace(/\.tpl$/, ''));
      const text = render(each.fill(readFileSync(source, 'utf8')));
      // A file that is all sample (the status value object, the list query) is not written for a bare module.
      if (text.trim() === '') continue;
      mkdirSync(dirname(destination), { recursive: true });
      writeFileSync(destination, text);
      written.push(relative(ROOT, destination));
    }
  }
};
copy(TEMPLATE);
if (dependencies.length > 0) wire(dependencies);
// A read model's subscriptions are its template's; any other module's each get a table of their own.
if (!readModel) subscriptions.forEach(subscribe);
if (stability) markStability(stability);

/** Every operation of the controller marked `@Stability(level)`, and a line of the README. */
function markStability(level) {
  const controller = join(target, 'src/http', `${plural.kebab}.controller.ts`);
  writeFileSync(
    controller,
    withImports(readFileSync(controller, 'utf8'), ["import { Stability } from '@app/stability';"]).replace(
      /^( {2}@(?:Get|Post|Put|Patch|Delete)\(.*\)\n)/gm,
      `$1  @Stability('${level}')\n`,
    ),
  );
  const readme = join(target, 'README.md');
  const promise =
    level === 'beta'
      ? 'complete and supported, but they may still change in a minor release, each change a line of the CHANGELOG'
      : 'they may change or be removed in any release, with a line of the CHANGELOG';
  writeFileSync(
    readme,
    readFileSync(readme, 'utf8').replace(
      '\n## Errors',
      `\nIts operations are **${level}** (\`@Stability('${level}')\` from \`@app/stability\`): ${promise}. The OpenAPI ` +
        `document marks each with \`x-stability\`; remove the decorators when they are stable.\n\n## Errors`,
    ),
  );
}

/**
 * For each dependency: the port and adapter of each of its facades, its Nest
 * module imported, and a section of the README.
 */
function wire(dependencies) {
  const imports = [];
  const providers = [];
  for (const dependency of dependencies) {
    imports.push(`import { ${dependency.nestModule} } from '@app/${dependency.module}';`);
    wireFacades(dependency, imports, providers);
  }
  const moduleFile = join(target, 'src', `${plural.kebab}.module.ts`);
  const nestModules = dependencies.map((dependency) => dependency.nestModule).join(', ');
  writeFileSync(
    moduleFile,
    withImports(readFileSync(moduleFile, 'utf8'), imports)
      .replace('  imports: [', `  imports: [${nestModules}, `)
      .replace('  providers: [\n', `  providers: [\n    ${providers.join('\n    ')}\n`),
  );
}

/** One dependency's facades: a port and an adapter each, their imports and providers added to the lists given. */
function wireFacades({ module, nestModule, facades }, imports, providers) {
  for (const facade of facades) {
    const kebab = kebabOf(facade.name);
    const port = `${facade.name}Port`;
    const adapter = `${facade.name}Adapter`;
    const field = facade.name[0].toLowerCase() + facade.name.slice(1);
    const signature = (method) => `${method.name}(${method.parameters.join(', ')}): ${method.returns}`;
    write(
      `src/domain/${kebab}.port.ts`,
      [
        '/**',
        ` * What this module asks of the ${module} module: a port of its own, plain`,
        ` * TypeScript, adapted to the ${facade.name} of ${module} in infrastructure/. Keep`,
        ' * the methods it uses, and name them in its own words.',
        ' */',
        `export abstract class ${port} {`,
        ...facade.methods.map((method) => `  abstract ${signature(method)};`),
        '}',
        '',
      ].join('\n'),
    );
    write(
      `src/infrastructure/${kebab}.adapter.ts`,
      [
        "import { Injectable } from '@nestjs/common';",
        `import { ${facade.name} } from '@app/${module}';`,
        `import { ${port} } from '../domain/${kebab}.port';`,
        '',
        `/** ${port} on the ${module} module's ${facade.name}; inside a transaction its writes join it. */`,
        '@Injectable()',
        `export class ${adapter} extends ${port} {`,
        `  constructor(private readonly ${field}: ${facade.name}) {`,
        '    super();',
        '  }',
        ...facade.methods.flatMap((method) => [
          '',
          `  ${signature(method)} {`,
          `    return this.${field}.${method.name}(${method.arguments.join(', ')});`,
          '  }',
        ]),
        '}',
        '',
      ].join('\n'),
    );
    imports.push(
      `import { ${port} } from './domain/${kebab}.port';`,
      `import { ${adapter} } from './infrastructure/${kebab}.adapter';`,
    );
    providers.push(`{ provide: ${port}, useClass: ${adapter} },`);
    if (facade.leftOut.length > 0) {
      console.log(
        `${facade.name}: left out of ${port} (their signatures name types of ${module}): ${facade.leftOut.join(', ')}`,
      );
    }
  }
  const ports = facades.map((facade) => `\`${facade.name}Port\``).join(', ');
  appendFileSync(
    join(target, 'README.md'),
    [
      '',
      `## Depends on ${module}`,
      '',
      `Through ${ports} in \`domain/\`, adapted in \`infrastructure/\` to what \`@app/${module}\` exports;`,
      `\`${nestModule}\` is imported by this module's Nest module. Inject the port where the application needs it: inside`,
      'application needs it: inside `UnitOfWork.run()` its writes join the same transaction (docs/extending.md, "Writing',
      'across modules").',
      '',
    ].join('\n'),
  );
}

/**
 * A subscription to `event`: its handler records each event heard in the module's own table, with that table's
 * record and migration, provided by the module and tested through the real application.
 */
function subscribe({ event, module, type, short }, n) {
  const table = `${plural.snake}_${short.snake}`;
  const owners = module.endsWith('s') ? `${module}'` : `${module}'s`;
  // pets.pet-created through pets' own operation, a keyed create and its replay; any other event published in a unit
  // of work of the application by the test's helper, with a payload of the test's own.
  const testImports =
    event === 'pets.pet-created'
      ? "import { AUTH, startTestApp, type TestApp } from '@test/support/test-app';"
      : `import type { ${type} } from '@app/${module}';
import { publishEvent } from '@test/support/publish-event';
import { startTestApp, type TestApp } from '@test/support/test-app';`;
  const trigger =
    event === 'pets.pet-created'
      ? `      it('records each ${event} once, after ${module} committed it; a replayed keyed create adds none', async () => {
        // The change that publishes ${event}: a create through pets' API.
        const create = () =>
          t.http().post('/v1/pets').set(AUTH).set('idempotency-key', \`heard-\${kind.name}\`).send({ name: 'Heard', categoryId: 1 });
        const created = await create();
        expect(created.status).toBe(201);
        const id = /"id":(\\d+)/.exec(created.text)![1];
        await waitFor(async () => (await heard(id)).length > 0, 'the event to be recorded');
        expect((await create()).headers['idempotent-replayed']).toBe('true');`
      : `      it('records each ${event} once, after it is committed', async () => {
        // ${event} as ${owners} change publishes it, committed in a unit of work; a payload of the event's shape
        // where the handler reads it.
        const id = String(Date.now());
        await publishEvent<${type}>(t, {
          name: '${event}',
          version: 1,
          aggregateId: id,
          payload: {} as ${type}['payload'],
        });
        await waitFor(async () => (await heard(id)).length > 0, 'the event to be recorded');`;
  const subscription = `${short.pascal}Subscription`;
  const record = `${short.pascal}Record`;
  const migration = `Create${plural.pascal}${short.pascal}${Number(tokens.TIMESTAMP) + n + 1}`;
  const migrationFile = `${Number(tokens.TIMESTAMP) + n + 1}-create-${plural.kebab}-${short.kebab}`;
  write(
    `src/infrastructure/${short.kebab}.subscription.ts`,
    `import { Injectable } from '@nestjs/common';
import { SqlClient } from '@app/database';
import { DomainEvents } from '@app/platform/ports';
import type { ${type} } from '@app/${module}';

/**
 * What this module does when ${module} publishes ${event}:
 * it records the event in \`${table}\`,
 * in the transaction the dispatcher runs the handler in, with the subscription's progress: once per event, after the
 * publisher's commit, never in its request (docs/extending.md, "Reacting to another module"). Make it the module's
 * own reaction (a call to its application service, whose writes join that transaction); keep in it only what the
 * database undoes. The progress is kept under the subscriber's name: never rename it once deployed.
 */
@Injectable()
export class ${subscription} {
  private readonly insert: string;

  constructor(
    events: DomainEvents,
    private readonly db: SqlClient,
  ) {
    this.insert = db.dialect.statement(
      'INSERT INTO ${table} (event_id, aggregate_id, occurred_at) VALUES ($1, $2, $3)',
    );
    events.subscribe<${type}>({
      subscriber: '${plural.kebab}.on-${short.kebab}',
      event: '${event}',
      handle: (heard) => this.handle(heard),
    });
  }

  private async handle(event: ${type}): Promise<void> {
    await this.db.write(this.insert, [event.id, event.aggregateId, event.occurredAt]);
  }
}
`,
  );
  write(
    `src/infrastructure/${short.kebab}.record.ts`,
    `import { Column, Entity, PrimaryColumn } from 'typeorm';

/** The \`${table}\` table: each ${event} this module heard, once (its migration makes it exactly). */
@Entity({ name: '${table}' })
export class ${record} {
  @PrimaryColumn({ name: 'event_id', type: 'varchar', length: 36 })
  eventId: string;

  /** The ${module} aggregate's id, as the event names it. */
  @Column({ name: 'aggregate_id', type: 'varchar', length: 64 })
  aggregateId: string;

  /** When ${module} made the change (ISO 8601, UTC). */
  @Column({ name: 'occurred_at', type: 'varchar', length: 24 })
  occurredAt: string;
}
`,
  );
  write(
    `src/infrastructure/migrations/${migrationFile}.ts`,
    `import { Table, type MigrationInterface, type QueryRunner } from 'typeorm';

/** The \`${table}\` table as ${record} declares it. A migration is never edited once released. */
export class ${migration} implements MigrationInterface {
  name = '${migration}';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.createTable(
      new Table({
        name: '${table}',
        columns: [
          { name: 'event_id', type: 'varchar', length: '36', isPrimary: true },
          { name: 'aggregate_id', type: 'varchar', length: '64' },
          { name: 'occurred_at', type: 'varchar', length: '24' },
        ],
      }),
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.dropTable('${table}');
  }
}
`,
  );
  write(
    `test/${short.kebab}.subscription.e2e-spec.ts`,
    `import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_KINDS, queryDatabase } from '@test/support/databases';
${testImports}
import { waitFor } from '@test/support/wait-for';

/** The subscription to ${event}, through the real application: ${owners} change, then what it recorded. */
for (const kind of DATABASE_KINDS) {
  describe.skipIf(kind.skipReason)(
    \`${plural.kebab} on ${event}, on \${kind.name}\${kind.skipReason ? \` (skipped: \${kind.skipReason})\` : ''}\`,
    () => {
      let t: TestApp;
      beforeAll(async () => (t = await startTestApp({ kind })));
      afterAll(() => t?.close());

      const heard = (aggregateId: string) =>
        queryDatabase(
          t.database.url,
          \`SELECT event_id, aggregate_id, occurred_at FROM ${table} WHERE aggregate_id = '\${aggregateId}'\`,
        );

${trigger}
        expect(await heard(id)).toEqual([
          {
            event_id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
            aggregate_id: id,
            occurred_at: expect.stringMatching(/^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z$/),
          },
        ]);
      });
    },
  );
}
`,
  );
  const moduleFile = join(target, 'src', `${plural.kebab}.module.ts`);
  writeFileSync(
    moduleFile,
    withImports(readFileSync(moduleFile, 'utf8'), [
      `import { ${record} } from './infrastructure/${short.kebab}.record';`,
      `import { ${subscription} } from './infrastructure/${short.kebab}.subscription';`,
    ])
      .replace(/entities: \[([^\]]*)\]/, `entities: [$1, ${record}]`)
      .replace('  providers: [\n', `  providers: [\n    ${subscription},\n`),
  );
  const migrationsFile = join(target, 'src/infrastructure/migrations/index.ts');
  writeFileSync(
    migrationsFile,
    readFileSync(migrationsFile, 'utf8')
      .replace('\n\n/**', `\nimport { ${migration} } from './${migrationFile}';\n\n/**`)
      .replace(/_MIGRATIONS = \[([^\]]*)\]/, `_MIGRATIONS = [$1, ${migration}]`),
  );
  appendFileSync(
    join(target, 'README.md'),
    [
      '',
      `## Subscribes to ${event}`,
      '',
      `\`infrastructure/${short.kebab}.subscription.ts\` subscribes to ${owners} \`${event}\` (its type, \`${type}\`, taken`,
      `from \`@app/${module}\` with \`import type\`: nothing of it runs here) as \`${plural.kebab}.on-${short.kebab}\`, and records each event`,
      `in \`${table}\`, once per event, after ${owners} commit. Make it the module's own reaction; what a handler may`,
      'do, and what once means: docs/extending.md, "Reacting to another module".',
      '',
    ].join('\n'),
  );
}

/** The app module's text with `feature` imported from the new module and added at the end of FEATURES. */
function withFeature(text, feature) {
  const ts = typescript();
  const source = ts.createSourceFile(APP_MODULE, text, ts.ScriptTarget.Latest, true);
  const lastImport = source.statements.filter(ts.isImportDeclaration).at(-1);
  const list = source.statements
    .filter(ts.isVariableStatement)
    .flatMap((statement) => statement.declarationList.declarations)
    .find((declaration) => declaration.name.getText(source) === 'FEATURES')?.initializer;
  if (!lastImport || !list || !ts.isArrayLiteralExpression(list)) {
    fail(`${relative(ROOT, APP_MODULE)} has no FEATURES list to add the module to`);
  }
  const features = [...list.elements.map((element) => element.getText(source)), feature];
  return (
    `${text.slice(0, lastImport.end)}\nimport { ${feature} } from '@app/${name}';` +
    `${text.slice(lastImport.end, list.getStart(source))}[${features.join(', ')}]${text.slice(list.end)}`
  );
}

/** `text` (a module's source) with `lines` imported after its last import. */
function withImports(text, lines) {
  const lastImport = text.lastIndexOf('\nimport ');
  const afterImports = text.indexOf('\n', text.indexOf(';', lastImport)) + 1;
  return `${text.slice(0, afterImports)}${lines.join('\n')}\n${text.slice(afterImports)}`;
}

/** A file of the new module, not from the template. */
function write(path, text) {
  const destination = join(target, path);
  writeFileSync(destination, text);
  written.push(relative(ROOT, destination));
}
writeFileSync(APP_MODULE, withFeature(readFileSync(APP_MODULE, 'utf8'), `${plural.pascal}Module`));
// A library project of the Nest CLI's monorepo, as `nest generate library` writes one (`nest build <name>`).
write(
  'tsconfig.lib.json',
  `${JSON.stringify({
    extends: '../../tsconfig.json',
    compilerOptions: { declaration: true, outDir: '../../dist', rootDir: '../..' },
    include: ['src/**/*'],
    exclude: ['node_modules', 'dist', 'test', '**/*spec.ts'],
  })}\n`,
);
const cli = JSON.parse(nestCliBefore);
cli.projects[name] = {
  type: 'library',
  root: `libs/${name}`,
  entryFile: 'index',
  sourceRoot: `libs/${name}/src`,
  compilerOptions: { tsConfigPath: `libs/${name}/tsconfig.lib.json` },
};
writeFileSync(NEST_CLI, `${JSON.stringify(cli, null, 2)}\n`);
execFileSync(
  join(ROOT, 'node_modules/.bin/prettier'),
  ['--log-level', 'warn', '--write', target, APP_MODULE, NEST_CLI],
  {
    stdio: 'inherit',
  },
);

console.log(
  `Wrote libs/${name}/ (${written.length} files), its module in ${relative(ROOT, APP_MODULE)} and nest-cli.json:`,
);
for (const file of written.sort()) console.log(`  ${file}`);
console.log(`
Next: npm run lint && npx vitest run libs/${name}
Its routes are served at /v1/${route}; its error codes are listed in libs/${name}/README.md.`);
