#!/usr/bin/env node
/**
 * npm run generate:module -- <name> [--entity <singular>] [--path <route>]
 *
 * Writes a new feature module under libs/<name>/ from scripts/module-template/
 * (a neutral skeleton: an entity with a closed status value object, its
 * repository port and TypeORM repository with a migration, an application
 * service, a controller with class-validator DTOs, unit tests, an e2e suite and
 * the module's README), then adds its line to the feature registry. Its routes
 * are served at /v1/<name>, or at /v1/<route> with --path (`store/orders`). The result
 * compiles, passes `npm run lint` and its own tests as it is
 * (test/slow/generator.e2e-spec.ts proves it).
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const TEMPLATE = join(ROOT, 'scripts/module-template');
const REGISTRY = join(ROOT, 'apps/petstore/src/feature-registry.ts');
const KEBAB = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;
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

function parseArguments(args) {
  const positional = [];
  let entity;
  let path;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--entity') entity = args[++i];
    else if (args[i] === '--path') path = args[++i];
    else if (args[i].startsWith('--')) fail(`unknown option ${args[i]}`);
    else positional.push(args[i]);
  }
  if (positional.length !== 1) {
    fail(
      'usage: npm run generate:module -- <name> [--entity <singular>] [--path <route>]   (e.g. orders --path store/orders)',
    );
  }
  return { name: positional[0], entity, path };
}

/** English plural to singular for the usual cases; anything else needs --entity. */
function singular(plural) {
  if (/ies$/.test(plural)) return plural.replace(/ies$/, 'y');
  if (/(s|x|z|ch|sh)es$/.test(plural)) return plural.replace(/es$/, '');
  if (/[^s]s$/.test(plural)) return plural.replace(/s$/, '');
  return undefined;
}

function names(kebab) {
  const words = kebab.split('-');
  const pascal = words.map((word) => word[0].toUpperCase() + word.slice(1)).join('');
  const snake = words.join('_');
  return { kebab, pascal, camel: pascal[0].toLowerCase() + pascal.slice(1), snake, upper: snake.toUpperCase() };
}

const { name, entity = singular(name), path: route = name } = parseArguments(process.argv.slice(2));
if (!KEBAB.test(name)) fail(`"${name}" is not a kebab-case name such as orders or gift-cards`);
if (!entity) fail(`cannot tell the singular of "${name}": give it with --entity <singular>`);
if (!KEBAB.test(entity)) fail(`"${entity}" is not a kebab-case name such as order or gift-card`);
if (!route.split('/').every((segment) => KEBAB.test(segment))) {
  fail(`"${route}" is not a path of kebab-case segments such as orders or store/orders`);
}
if (name === 'platform' || existsSync(join(ROOT, 'libs', name))) fail(`libs/${name} exists already`);
const plural = names(name);
const one = names(entity);
for (const word of [plural.camel, one.camel]) {
  if (RESERVED.has(word)) fail(`"${word}" is a reserved word in TypeScript: choose another name or --entity`);
}

/** "an order", "a pet", "a user", "an hour": the article before the entity's name in the generated prose. */
function articleOf(word) {
  if (/^(u[bcdfgklnprstvz][aeiouy]|eu|uni|one|once)/.test(word)) return 'a';
  if (/^(hour|honest|honou?r|heir)/.test(word)) return 'an';
  return /^[aeiou]/.test(word) ? 'an' : 'a';
}
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
  THINGS: plural.upper,
  THING: one.upper,
  TIMESTAMP: String(Date.now()),
  route,
};
const fill = (text) =>
  text.replace(
    /__(things-kebab|thing-kebab|things_snake|thing_snake|a_thing|A_thing|Things|Thing|things|thing|THINGS|THING|TIMESTAMP|route)__/g,
    (_, token) => tokens[token],
  );

const target = join(ROOT, 'libs', name);
const written = [];
const copy = (folder) => {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const source = join(folder, entry.name);
    if (entry.isDirectory()) {
      copy(source);
      continue;
    }
    const destination = join(target, fill(relative(TEMPLATE, source)).replace(/\.tpl$/, ''));
    mkdirSync(dirname(destination), { recursive: true });
    writeFileSync(destination, fill(readFileSync(source, 'utf8')));
    written.push(relative(ROOT, destination));
  }
};
copy(TEMPLATE);
appendFileSync(REGISTRY, `export { ${plural.camel}Feature } from '@app/${name}';\n`);
execFileSync(join(ROOT, 'node_modules/.bin/prettier'), ['--log-level', 'warn', '--write', target, REGISTRY], {
  stdio: 'inherit',
});

console.log(`Wrote libs/${name}/ (${written.length} files) and its line in ${relative(ROOT, REGISTRY)}:`);
for (const file of written.sort()) console.log(`  ${file}`);
console.log(`
Next: npm run lint && npx vitest run libs/${name}
Its routes are served at /v1/${route}; its error codes are listed in libs/${name}/README.md.`);
