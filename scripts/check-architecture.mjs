#!/usr/bin/env node
/**
 * npm run lint:architecture [-- --json] [paths...]: the layer and module rules of .dependency-cruiser.cjs, cruised
 * over the tree of the current folder (apps, libs and test by default), and the rules a cruise of imports cannot
 * state, checked on its result:
 *
 * - app-imports-every-library: each application's root module (apps/<app>/src/app.module.ts) imports every library
 *   under libs/ but the platform core: a library left out is never started, its tables never made;
 * - undeclared-imports-are-event-types: what a library takes of another whose code it never runs (a type-only import,
 *   of a library it imports nothing else of) is that library's event types, exported by its index.ts from a
 *   `*.event.ts` file: a subscriber names the events it reacts to, and takes nothing more of their publisher.
 *
 * Prints each violation, and exits 1 if there is any; with --json, prints them as JSON (test/architecture.spec.ts
 * runs this over a broken fixture tree, and expects each rule to fire).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import ts from 'typescript';

const ROOT = resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const json = args.includes('--json');
const paths = args.filter((arg) => arg !== '--json');

const EXTRA_RULES = {
  'app-imports-every-library':
    "The application's root module imports every library under libs/ but the platform core: a library left out is never started, its tables never made.",
  'undeclared-imports-are-event-types':
    "A library takes of another whose code it never runs only event types (import type, from the other's index.ts, declared in a *.event.ts file).",
};

/** The cruise of .dependency-cruiser.cjs, as JSON: its violations, and every module with its resolved imports. */
function cruise() {
  const { stdout, stderr, status } = spawnSync(
    process.execPath,
    [
      join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruiser.mjs'),
      '--config',
      join(ROOT, '.dependency-cruiser.cjs'),
      '--output-type',
      'json',
      '--exclude',
      '^test/fixtures/',
      ...(paths.length > 0 ? paths : ['apps', 'libs', 'test']),
    ],
    { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 },
  );
  // The cruise exits with the count of errors it found; anything it cannot start says so on stderr, with no JSON.
  if (!stdout.startsWith('{')) throw new Error(`dependency-cruiser failed (exit ${status}): ${stderr}`);
  return JSON.parse(stdout);
}

/** Each library under libs/ (but the platform core), with the libraries its code imports to run (not type-only). */
function libraries(modules) {
  const names = readdirSync('libs', { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name !== 'platform')
    .map(({ name }) => name);
  const uses = new Map(names.map((name) => [name, new Set([name, 'platform'])]));
  for (const { source, dependencies } of modules) {
    const from = /^libs\/([^/]+)\//.exec(source)?.[1];
    if (!uses.has(from)) continue;
    for (const { resolved, dependencyTypes } of dependencies) {
      const to = /^libs\/([^/]+)\//.exec(resolved)?.[1];
      if (to !== undefined && !dependencyTypes.includes('type-only')) uses.get(from).add(to);
    }
  }
  return names.map((name) => ({ name, uses: uses.get(name) }));
}

/** The names an import declaration of `file` takes from `specifier`, and whether the whole declaration is type-only. */
function namesImported(file, specifier) {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  return source.statements
    .filter((statement) => ts.isImportDeclaration(statement) && statement.moduleSpecifier.text === specifier)
    .flatMap(({ importClause }) => {
      const bindings = importClause?.namedBindings;
      // A default or namespace import takes the whole module: no single name to check.
      if (!bindings || !ts.isNamedImports(bindings)) return ['*'];
      return bindings.elements.map((element) => (element.propertyName ?? element.name).text);
    });
}

/** The names `index` (a library's index.ts) exports from a `*.event` module. */
function eventTypesOf(index) {
  const source = ts.createSourceFile(index, readFileSync(index, 'utf8'), ts.ScriptTarget.Latest, true);
  return new Set(
    source.statements
      .filter(
        (statement) => ts.isExportDeclaration(statement) && /\.event$/.test(statement.moduleSpecifier?.text ?? ''),
      )
      .flatMap(({ exportClause }) => (exportClause && ts.isNamedExports(exportClause) ? exportClause.elements : []))
      .map((element) => element.name.text),
  );
}

/** Type-only imports of a library the importer runs nothing of, of anything but that library's event types. */
function undeclaredImports(modules, libs) {
  const declared = new Map(libs.map(({ name, uses }) => [name, uses]));
  return modules.flatMap(({ source, dependencies }) => {
    const from = /^libs\/([^/]+)\//.exec(source)?.[1];
    if (!declared.has(from)) return [];
    return dependencies.flatMap(({ resolved, module: specifier, dependencyTypes }) => {
      const to = /^libs\/([^/]+)\/src\/index\.ts$/.exec(resolved)?.[1];
      if (to === undefined || declared.get(from).has(to) || !dependencyTypes.includes('type-only')) return [];
      const events = eventTypesOf(resolved);
      return namesImported(source, specifier)
        .filter((name) => !events.has(name))
        .map((name) => violation('undeclared-imports-are-event-types', source, `${resolved}#${name}`));
    });
  });
}

/** The libraries each application's root module imports (`@app/<library>`), and those it leaves out. */
function rootModuleViolations(libs) {
  const apps = existsSync('apps') ? readdirSync('apps') : [];
  return apps.flatMap((app) => {
    const file = `apps/${app}/src/app.module.ts`;
    if (!existsSync(file)) return [violation('app-imports-every-library', `apps/${app}`, file)];
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const imported = new Set(
      source.statements
        .filter((statement) => ts.isImportDeclaration(statement))
        .map((statement) => /^@app\/([^/]+)$/.exec(statement.moduleSpecifier.text)?.[1]),
    );
    return libs
      .filter(({ name }) => !imported.has(name))
      .map(({ name }) => violation('app-imports-every-library', file, `libs/${name}`));
  });
}

function violation(rule, from, to) {
  return { rule: { name: rule }, from, to };
}

const result = cruise();
const libs = libraries(result.modules);
const violations = [
  ...result.summary.violations,
  ...undeclaredImports(result.modules, libs),
  ...rootModuleViolations(libs),
];
if (json) {
  console.log(JSON.stringify(violations, null, 2));
} else {
  const comments = Object.fromEntries(result.summary.ruleSetUsed.forbidden.map((rule) => [rule.name, rule.comment]));
  for (const { rule, from, to } of violations) {
    console.error(`error ${rule.name}: ${from} → ${to}\n    ${comments[rule.name] ?? EXTRA_RULES[rule.name]}`);
  }
  console.log(
    violations.length === 0
      ? `✔ no architecture rule broken (${result.summary.totalCruised} modules, ${result.summary.totalDependenciesCruised} imports cruised)`
      : `✘ ${violations.length} architecture rule(s) broken`,
  );
}
process.exitCode = violations.length === 0 ? 0 : 1;
