/**
 * The layer and module rules of the architecture (docs/decisions/0008), checked
 * on imports as TypeScript resolves them: static, dynamic `import()`,
 * `require()`, re-exports and type-only imports, however they are quoted.
 * Every rule is written with capture groups over `libs/<module>/`, so a new
 * module is covered without an edit here. `npm run lint` runs it;
 * test/architecture.spec.ts proves each rule fires on a broken fixture tree.
 */
const SOURCE = { pathNot: ['\\.spec\\.ts$', '\\.e2e-spec\\.ts$', '^libs/[^/]+/test/'] };
/** The framework-free entry point of the platform's errors, which domains may use. */
const PLATFORM_ERRORS = '^libs/platform/src/errors/(index|app-error)\\.ts$';

module.exports = {
  forbidden: [
    {
      name: 'domain-is-plain-typescript',
      comment:
        'A domain imports only its own domain and the platform errors: no framework, ORM, validation library or outer layer.',
      severity: 'error',
      from: { path: '^libs/([^/]+)/src/domain/', ...SOURCE },
      to: { pathNot: ['^libs/$1/src/domain/', PLATFORM_ERRORS] },
    },
    {
      name: 'platform-errors-are-plain-typescript',
      comment: 'The error classes domains extend import nothing else.',
      severity: 'error',
      from: { path: PLATFORM_ERRORS },
      to: { pathNot: PLATFORM_ERRORS },
    },
    {
      name: 'application-uses-only-its-domain',
      comment:
        "Application services speak domain types only: no framework, ORM, HTTP or infrastructure. Node's own modules (node:crypto) are the runtime, not a framework.",
      severity: 'error',
      from: { path: '^libs/([^/]+)/src/application/', ...SOURCE },
      to: { pathNot: ['^libs/$1/src/(application|domain)/', PLATFORM_ERRORS], dependencyTypesNot: ['core'] },
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
      comment: "Another module is reached only through its index.ts (and the platform's errors entry point).",
      severity: 'error',
      from: { path: '^libs/([^/]+)/', ...SOURCE },
      to: {
        path: '^libs/',
        pathNot: ['^libs/$1/', '^libs/[^/]+/src/index\\.ts$', '^libs/platform/src/errors/index\\.ts$'],
      },
    },
    {
      name: 'platform-knows-no-feature',
      comment: 'The platform is cross-cutting: it imports no feature module.',
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
      to: { couldNotResolve: true },
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
