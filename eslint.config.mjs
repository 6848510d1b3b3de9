// The lint gate's ESLint part (`npm run lint`): typescript-eslint's recommended
// rules with type information, Prettier owning the formatting.
import eslint from '@eslint/js';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** `import()` and `require()` of a path computed at run time: no rule could say where they lead. */
export const COMPUTED_IMPORTS = [
  {
    selector: "ImportExpression[source.type!='Literal'][source.type!='TemplateLiteral']",
    message: 'Import a module by a path written out: the layer rules cannot follow a computed one.',
  },
  {
    selector: 'ImportExpression > TemplateLiteral[expressions.length>0]',
    message: 'Import a module by a path written out: the layer rules cannot follow a computed one.',
  },
  {
    selector: "CallExpression[callee.name='require'][arguments.0.type!='Literal']",
    message: 'Require a module by a path written out: the layer rules cannot follow a computed one.',
  },
];

/** A route of a controller: a method with one of Nest's HTTP method decorators. */
const ROUTE =
  'MethodDefinition:has(> Decorator[expression.callee.name=/^(Get|Post|Put|Patch|Delete|Head|Options|All)$/])';
/**
 * A route that states no scope: not in a class that is `@Scoped()`, and neither `@RequiresScope()` nor `@Public()`.
 * The bearer guard would ask such a route for every scope (`*`), which only an unscoped key has (issue 55).
 */
export const UNSCOPED_ROUTES = [
  {
    selector:
      "ClassDeclaration:not(:has(> Decorator[expression.callee.name='Scoped'])) " +
      `${ROUTE}:not(:has(> Decorator[expression.callee.name=/^(RequiresScope|Public|ForMonitors)$/]))`,
    message:
      "A route states its scope: @Scoped('<area>') on its controller, @RequiresScope('<area>:<access>') or @Public() (@ForMonitors()) on it.",
  },
];

/**
 * A key compared as a secret is compared in constant time (`timingSafeEqual`): `Buffer#equals`, `Buffer.compare` and
 * their kind stop at the first byte that differs, and the time taken tells an attacker how much of a guess was right.
 */
export const EARLY_EXIT_COMPARES = [
  {
    selector: 'CallExpression[callee.property.name=/^(equals|compare|localeCompare)$/]',
    message: 'Compare secrets with timingSafeEqual from node:crypto: this comparison stops at the first difference.',
  },
];

/**
 * What a library keeps to itself, read or written from outside it: its underscored members (node-postgres'
 * `_queryable`, Node's `socket._httpMessage`), TypeORM's query runner's transaction flags and its driver's pool and
 * connections, node-postgres' connection's socket. A patch release may change any of them without a word; the
 * service uses what the libraries offer (docs/decisions/0035).
 */
export const LIBRARY_PRIVATES = [
  {
    selector: "MemberExpression[computed=false][property.name=/^_/]:not([object.type='ThisExpression'])",
    message: "A library's underscored member is its own: use what it offers, or measure and write a decision.",
  },
  {
    selector: 'MemberExpression[computed=true][property.value=/^_/]',
    message: "A library's underscored member is its own: use what it offers, or measure and write a decision.",
  },
  {
    selector: 'TSPropertySignature[key.name=/^_/]',
    message: "A type that reaches a library's underscored member: use what the library offers.",
  },
  {
    selector:
      ':matches(AssignmentExpression > MemberExpression.left, Property)' +
      '[property.name=/^(isTransactionActive|transactionDepth|isReleased)$/], ' +
      'Property[key.name=/^(isTransactionActive|transactionDepth|isReleased)$/]',
    message:
      "TypeORM's query runner keeps its transaction's state: begin, commit and roll back with its startTransaction(), " +
      'commitTransaction() and rollbackTransaction().',
  },
  {
    selector:
      "MemberExpression[property.name=/^(master|slaves|queryRunner|databaseConnection)$/]:has(MemberExpression[property.name='driver'])",
    message: "TypeORM's driver keeps its pool and connections: take a connection with a query runner's connect().",
  },
  {
    selector: "MemberExpression[object.property.name='connection'][property.name='stream']",
    message: "node-postgres' connection keeps its socket: use the client's query() and end().",
  },
];

/**
 * Nest's internals, imported from outside Nest: what its packages keep to themselves (`@nestjs/common/internal`, their
 * `constants`, `enums/...`, anything under `dist/`), which a minor release may change. Only a package's own entry
 * point is imported. And `@Body()` is the validation library's, which says on the handler that the route takes a body.
 */
export const NEST_INTERNALS = {
  patterns: [
    {
      regex: '^@nestjs/[^/]+/.+',
      message:
        "Import from the package's entry point (@nestjs/common, @nestjs/core, ...): its other paths are Nest's internals. Reflector, DiscoveryService and the decorators' own metadata say what a route is.",
    },
  ],
  paths: [
    {
      name: '@nestjs/common',
      importNames: ['Body'],
      message:
        "Import Body from '@app/validation': Nest's own, which also tells the no-body guard and the idempotency interceptor that the route takes a body, and of which class.",
    },
  ],
};

/**
 * A decorator keeps what it declares on its target (SetMetadata, read with Reflector): a collection at the top of a
 * decorator file would fill as classes are loaded, shared by every application and test of the process, and differ with
 * the order files are imported in.
 */
export const DECORATOR_STATE = [
  {
    selector:
      ':matches(Program, Program > ExportNamedDeclaration) > VariableDeclaration > VariableDeclarator > ' +
      ':matches(NewExpression[callee.name=/^(Set|Map|WeakMap|WeakSet|Array)$/], ArrayExpression)',
    message:
      'A decorator keeps what it declares in metadata on its target (SetMetadata, read with Reflector or DiscoveryService), not in a collection of its file.',
  },
  {
    selector: ":matches(Program, Program > ExportNamedDeclaration) > VariableDeclaration[kind='let']",
    message:
      'A decorator keeps what it declares in metadata on its target (SetMetadata, read with Reflector or DiscoveryService), not in a variable of its file.',
  },
];

/**
 * no-restricted-syntax with these groups of selectors. ESLint gives a file the options of the last entry that names
 * the rule, so an entry for narrower files lists every group that applies to them.
 */
function restrictedSyntax(...groups) {
  return { 'no-restricted-syntax': ['error', ...groups.flat()] };
}

export default tseslint.config(
  { ignores: ['dist/', 'coverage/', 'node_modules/', 'bench/.work/', 'test/fixtures/'] },
  eslint.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-imports': ['error', NEST_INTERNALS],
      // Settings are read from the environment by each module's namespace of Nest's configuration, in its
      // *.settings.ts (the core's in config/app-config.ts), as the application starts (decision 0036).
      'no-restricted-properties': [
        'error',
        {
          object: 'process',
          property: 'env',
          message:
            "Inject the module's settings instead: only a *.settings.ts namespace of @nestjs/config (registerAs) reads the environment.",
        },
      ],
    },
  },
  {
    files: [
      'libs/*/src/**/*.settings.ts',
      'libs/platform/src/config/app-config.ts',
      'test/**/*.ts',
      'libs/*/test/**/*.ts',
      '**/*.spec.ts',
      'vitest.config.ts',
    ],
    // Settings namespaces read the environment; tests read their own settings there and parse JSON bodies of any shape.
    rules: { 'no-restricted-properties': 'off', '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['**/*.{js,mjs,cjs}'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    // CommonJS files (the dependency-cruiser configuration) load their modules with require().
    files: ['**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // The layer rules (.dependency-cruiser.cjs) see only imports whose path is written out; no code reaches into a
    // library's own state.
    rules: restrictedSyntax(COMPUTED_IMPORTS, LIBRARY_PRIVATES),
  },
  {
    // And every route of the service states the scope a key needs for it (test/scopes.e2e-spec.ts reads them).
    files: ['apps/*/src/**/*.ts', 'libs/*/src/**/*.ts'],
    rules: restrictedSyntax(COMPUTED_IMPORTS, LIBRARY_PRIVATES, UNSCOPED_ROUTES),
  },
  {
    // Where keys are checked, nothing compares bytes but in constant time.
    files: ['libs/auth/src/**/*.ts'],
    rules: restrictedSyntax(COMPUTED_IMPORTS, LIBRARY_PRIVATES, UNSCOPED_ROUTES, EARLY_EXIT_COMPARES),
  },
  {
    // A decorator file keeps no state of its own.
    files: ['apps/*/src/**/*.decorator.ts', 'libs/*/src/**/*.decorator.ts'],
    rules: restrictedSyntax(COMPUTED_IMPORTS, LIBRARY_PRIVATES, UNSCOPED_ROUTES, DECORATOR_STATE),
  },
  {
    files: ['libs/auth/src/**/*.decorator.ts'],
    rules: restrictedSyntax(COMPUTED_IMPORTS, LIBRARY_PRIVATES, UNSCOPED_ROUTES, EARLY_EXIT_COMPARES, DECORATOR_STATE),
  },
  prettier,
);
