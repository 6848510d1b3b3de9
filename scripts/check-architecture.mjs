#!/usr/bin/env node
/**
 * npm run lint:architecture [-- --json] [paths...]: the layer and module rules of .dependency-cruiser.cjs, cruised
 * over the tree of the current folder (apps, libs and test by default), and the rules a cruise of imports cannot
 * state, checked on its result:
 *
 * - modules-declare-only-what-they-use: a library's module.json lists in dependsOn only libraries its code imports
 *   (the cruise's modules-use-only-what-they-declare refuses the converse);
 * - composition-lists-every-library: the composition (apps/<app>/src/composition.ts) lists every library under libs/
 *   but the platform core, once, in CAPABILITIES or FEATURES;
 * - composition-kinds-match: each in the list its module.json `kind` names;
 * - composition-orders-dependencies-first: each after every library it depends on.
 * - undeclared-imports-are-event-types: what a library imports of another it does not declare (a type-only import,
 *   which the cruise lets through) is that library's event types, exported by its index.ts from a `*.event.ts` file:
 *   a subscriber names the events it reacts to, and takes nothing more of their publisher.
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
  'modules-declare-only-what-they-use':
    "A library's module.json lists in dependsOn only the libraries its code imports: a stale entry misleads the reader and the composition's order.",
  'composition-lists-every-library':
    'The composition lists every library under libs/ but the platform core, once: a library left out is never started, its tables never made.',
  'composition-kinds-match':
    "A library stands in CAPABILITIES or FEATURES as its module.json's kind says: only features' routes are served under /v1.",
  'composition-orders-dependencies-first':
    'Each part of the composition comes after every library it depends on, so that the parts start in an order that works.',
  'undeclared-imports-are-event-types':
    "A library takes of another it does not list in dependsOn only event types (import type, from the other's index.ts, declared in a *.event.ts file).",
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

/** Each library under libs/ (but the platform core) with its module.json: `kind` and `dependsOn`. */
function libraries() {
  return readdirSync('libs', { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name !== 'platform')
    .map(({ name }) => ({ name, ...JSON.parse(readFileSync(join('libs', name, 'module.json'), 'utf8')) }));
}

/** Libraries a module.json declares that no source file of the library imports. */
function unusedDeclarations(modules, libs) {
  const used = new Map(libs.map(({ name }) => [name, new Set()]));
  const SOURCE = /^libs\/([^/]+)\/(?!test\/).*(?<!\.spec\.ts)(?<!\.e2e-spec\.ts)$/;
  for (const module of modules) {
    const from = SOURCE.exec(module.source)?.[1];
    if (!used.has(from)) continue;
    for (const dependency of module.dependencies) {
      const to = /^libs\/([^/]+)\//.exec(dependency.resolved)?.[1];
      if (to !== undefined && to !== from) used.get(from).add(to);
    }
  }
  return libs.flatMap(({ name, dependsOn = [] }) =>
    dependsOn
      .filter((other) => !used.get(name).has(other))
      .map((other) => violation('modules-declare-only-what-they-use', `libs/${name}/module.json`, `libs/${other}`)),
  );
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

/** Type-only imports of a library the importer does not declare, of anything but that library's event types. */
function undeclaredImports(modules, libs) {
  const declared = new Map(libs.map(({ name, dependsOn = [] }) => [name, new Set([name, 'platform', ...dependsOn])]));
  return modules.flatMap(({ source, dependencies }) => {
    const from = /^libs\/([^/]+)\//.exec(source)?.[1];
    if (!declared.has(from)) return [];
    // An undeclared import that runs is the cruise's modules-use-only-what-they-declare; here, the type-only ones.
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

/** The composition's two lists, each entry as the library its name is imported from (`@app/<library>`). */
function listsOf(file) {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const importedFrom = new Map();
  const lists = {};
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement) && statement.importClause?.namedBindings) {
      const library = /^@app\/([^/]+)$/.exec(statement.moduleSpecifier.text)?.[1];
      for (const element of statement.importClause.namedBindings.elements ?? []) {
        importedFrom.set(element.name.text, library);
      }
    }
    if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) {
        const name = declaration.name.getText(source);
        if ((name === 'CAPABILITIES' || name === 'FEATURES') && ts.isArrayLiteralExpression(declaration.initializer)) {
          lists[name] = declaration.initializer.elements.map((element) => importedFrom.get(element.getText(source)));
        }
      }
    }
  }
  return lists;
}

function compositionViolations(libs) {
  const apps = existsSync('apps') ? readdirSync('apps') : [];
  return apps.flatMap((app) => {
    const file = `apps/${app}/src/composition.ts`;
    if (!existsSync(file)) return [violation('composition-lists-every-library', `apps/${app}`, file)];
    const { CAPABILITIES = [], FEATURES = [] } = listsOf(file);
    const order = [...CAPABILITIES, ...FEATURES];
    const found = [];
    for (const { name, kind, dependsOn = [] } of libs) {
      const place = order.indexOf(name);
      if (place < 0 || order.lastIndexOf(name) !== place) {
        found.push(violation('composition-lists-every-library', file, `libs/${name}`));
        continue;
      }
      const listedAs = place < CAPABILITIES.length ? 'capability' : 'feature';
      if (kind !== listedAs) found.push(violation('composition-kinds-match', file, `libs/${name}`));
      for (const other of dependsOn) {
        if (!(order.indexOf(other) < place)) {
          found.push(violation('composition-orders-dependencies-first', `libs/${name}`, `libs/${other}`));
        }
      }
    }
    const strangers = order.filter((name) => !libs.some((library) => library.name === name));
    return [...found, ...strangers.map((name) => violation('composition-lists-every-library', file, `${name}`))];
  });
}

function violation(rule, from, to) {
  return { rule: { name: rule }, from, to };
}

const result = cruise();
const libs = libraries();
const violations = [
  ...result.summary.violations,
  ...unusedDeclarations(result.modules, libs),
  ...undeclaredImports(result.modules, libs),
  ...compositionViolations(libs),
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
