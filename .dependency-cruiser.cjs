/**
 * The layer and module rules of the architecture (docs/decisions/0008), checked
 * on imports as TypeScript resolves them: static, dynamic `import()`,
 * `require()`, re-exports and type-only imports, however they are quoted.
 * Every rule is written with capture groups over `libs/<module>/`, so a new
 * module is covered without an edit here. `npm run lint:architecture`
 * (scripts/check-architecture.mjs) runs it; test/architecture.spec.ts proves
 * each rule fires on a broken fixture tree.
 */
const { existsSync, readdirSync } = require('node:fs');
const { join } = require('node:path');

const SOURCE = { pathNot: ['\\.spec\\.ts$', '\\.e2e-spec\\.ts$', '^libs/[^/]+/test/'] };
/** The framework-free entry points domains may use: the platform's errors, and its domain's building blocks. */
const PLATFORM_ERRORS =
  '^libs/platform/src/(errors/(index|app-error)|domain/(index|aggregate-root|page)|ports/domain-events)\\.ts$';
/** The platform's framework-free entry points: those, and the ports application layers may use (UnitOfWork). */
const PLATFORM_PLAIN =
  '^libs/platform/src/(errors/(index|app-error)|domain/(index|aggregate-root|page)|ports/(index|unit-of-work|domain-events))\\.ts$';

const LIBS = join(process.cwd(), 'libs');
/** The modules under `libs/` of the tree being cruised, but the core. */
const LIBRARIES = readdirSync(LIBS, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && entry.name !== 'platform')
  .map((entry) => entry.name);
/**
 * The features among them: those that serve routes, with a controller in their `src/http/`. The others are capability
 * libraries (the database, idempotency, auth), which features use and which use no feature. A library's Nest module
 * imports the modules it depends on; the cruise holds their imports to the rules below.
 */
const FEATURES = LIBRARIES.filter((name) => {
  const http = join(LIBS, name, 'src/http');
  return existsSync(http) && readdirSync(http).some((file) => file.endsWith('.controller.ts'));
});
const CAPABILITIES = LIBRARIES.filter((name) => !FEATURES.includes(name));

/** One rule per capability library: it imports the platform core and other capabilities, never a feature. */
const capabilitiesKnowNoFeature = CAPABILITIES.map((name) => ({
  name: 'capabilities-know-no-feature',
  comment: `libs/${name} is a capability (no controller in its http/): it imports the platform core and other capabilities, and no feature module.`,
  severity: 'error',
  from: { path: `^libs/${name}/`, ...SOURCE },
  to: { path: '^libs/', pathNot: [`^libs/(${['platform', ...CAPABILITIES].join('|')})/`] },
}));

module.exports = {
  forbidden: [
    ...capabilitiesKnowNoFeature,
    {
      name: 'no-cycles-between-modules',
      comment:
        'Modules depend on each other in one direction: a cycle through another module fails only at boot (Nest cannot order the modules).',
      severity: 'error',
      from: { path: '^libs/([^/]+)/', ...SOURCE },
      to: { circular: true, via: { pathNot: '^libs/$1/' } },
    },
    {
      name: 'domain-is-plain-typescript',
      comment:
        'A domain imports only its own domain, the platform errors and its building blocks (AggregateRoot): no framework, ORM, validation library or outer layer.',
      severity: 'error',
      from: { path: '^libs/([^/]+)/src/domain/', ...SOURCE },
      to: { pathNot: ['^libs/$1/src/domain/', PLATFORM_ERRORS] },
    },
    {
      name: 'platform-plain-entries-are-plain-typescript',
      comment: 'The error classes domains extend, and the ports application layers use, import nothing else.',
      severity: 'error',
      from: { path: PLATFORM_PLAIN },
      to: { pathNot: PLATFORM_PLAIN },
    },
    {
      name: 'application-uses-only-its-domain',
      comment:
        "Application services speak domain types only, and the platform's plain ports (UnitOfWork): no framework, ORM, HTTP or infrastructure. Node's own modules (node:crypto) are the runtime, not a framework.",
      severity: 'error',
      from: { path: '^libs/([^/]+)/src/application/', ...SOURCE },
      to: { pathNot: ['^libs/$1/src/(application|domain)/', PLATFORM_PLAIN], dependencyTypesNot: ['core'] },
    },
    {
      name: 'test-doubles-only-in-tests',
      comment:
        "The platform's test doubles (@app/platform/testing) are for specs: no code of the service imports them.",
      severity: 'error',
      from: { path: '^(apps|libs)/', pathNot: [...SOURCE.pathNot, '^libs/platform/src/testing/'] },
      to: { path: '^libs/platform/src/testing/' },
    },
    {
      name: 'http-does-not-reach-infrastructure',
      comment: 'Controllers and DTOs go through the application layer, never to repositories or records.',
      severity: 'error',
      from: { path: '^libs/[^/]+/src/http/', ...SOURCE },
      to: { path: '^libs/[^/]+/src/infrastructure/' },
    },
    {
      name: 'infrastructure-does-not-reach-http',
      comment: 'Repositories and records know nothing of requests and responses.',
      severity: 'error',
      from: { path: '^libs/[^/]+/src/infrastructure/', ...SOURCE },
      to: { path: '^libs/[^/]+/src/http/' },
    },
    {
      name: 'modules-meet-through-their-index',
      comment:
        "Another module is reached only through its index.ts (and the platform's domain, errors and ports entry points).",
      severity: 'error',
      from: { path: '^libs/([^/]+)/', ...SOURCE },
      to: {
        path: '^libs/',
        pathNot: [
          '^libs/$1/',
          '^libs/[^/]+/src/index\\.ts$',
          '^libs/platform/src/(domain|errors|ports|testing)/index\\.ts$',
        ],
      },
    },
    {
      name: 'no-cycles-between-folders',
      comment:
        'Inside a library, two folders never import each other, however indirectly: each folder does one job, and the arrows between them go one way.',
      severity: 'error',
      scope: 'folder',
      from: { path: '^libs/([^/]+)/' },
      to: { path: '^libs/$1/', circular: true },
    },
    {
      name: 'platform-knows-no-feature',
      comment: 'The platform core is cross-cutting: it imports no capability library and no feature module.',
      severity: 'error',
      from: { path: '^libs/platform/', ...SOURCE },
      to: { path: '^libs/', pathNot: '^libs/platform/' },
    },
    {
      name: 'apps-use-module-indexes',
      comment: 'The application wires modules through their public surface only.',
      severity: 'error',
      from: { path: '^apps/' },
      to: { path: '^libs/', pathNot: '^libs/[^/]+/src/index\\.ts$' },
    },
    {
      name: 'imports-resolve',
      comment: 'An import that does not resolve (a deep alias such as @app/module/domain/x, a typo) is an error.',
      severity: 'error',
      from: {},
      // But the build's output, which a test harness running the built service loads and a clean checkout has not.
      to: { couldNotResolve: true, pathNot: '(^|/)dist/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)dist/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.js', '.mjs', '.cjs', '.d.ts', '.json'],
    },
  },
};
