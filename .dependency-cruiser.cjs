/**
 * The layers of src/, enforced in CI (`npm run layers`). Lower layers never import higher ones:
 *
 *   foundation      errors, config (and config/), log, validation, deadline, http-timeouts, project-files, net/,
 *                   watch/ (the kit a check's watch spec is written with)  (imports nothing of src/ above it)
 *   probes/         network I/O, its result types, parsers and errors
 *   platform/       keys, auth, quota, redis, metrics, shared cache, admission
 *   loaders/        the per-request check context: the common upstream families, declared loaders, cross-request caches
 *   services.ts     the long-lived services' type: the loaders' dependencies and the platform
 *   jobs/           one check over many targets: the job's shape, operations, stores, runners, signed delivery
 *                   (the tools it runs come through a port the REST layer implements)
 *   graphql/        what a check's declaration is written with: the Pothos builder, the request context, defineCheck,
 *                   the job fields
 *   checks/         one folder per check (rules, run, declaration, object types), shared code per family
 *   monitors/       diffs, events, badges and the monitors' store over the checks' watch specs, given as data
 *                   (graphql-server/watch-specs.ts): plain data, the foundation and embedded-db;
 *                   monitors/runtime/ runs them beside jobs (the jobs' tool port, slots and signed delivery)
 *   graphql-server/ the schema assembled from every declaration, yoga and its plugins
 *   rest/           the v1 shim over the GraphQL pipeline
 *   web/            pages and endpoints around the API (developer page, key issuance, health)
 *   top             app.ts, main.ts, job-worker.ts, create-services.ts, cluster/, warm-up/, http-server.ts, client-errors.ts
 *                   (composition), cli/ (the netdiag command, which composes the app in its own process)
 *
 * Beside the layers: the report page's browser code (web/report/client/) imports only itself and the report's
 * pure modules (sections, findings, verdicts), which import nothing; and the service never imports the
 * browser code or the command. Tests beside the code (the `*.test.ts` files of src/: a check's tests in its
 * folder) stand outside the layers, as test/ does: they may import test/ helpers and labs, and nothing in src/
 * imports them.
 *
 * There are no exceptions: a rule that needs one is a design question, not a configuration one.
 */
const foundation = '^src/(errors|config|log|validation|deadline|http-timeouts|project-files)[.]ts$|^src/(config|net|watch)/';
const top = '^src/(app|main|job-worker|create-services|http-server|client-errors)[.]ts$|^src/(cluster|warm-up|cli)/';
const reportPure = '^src/web/report/(sections|findings|verdicts)[.]ts$';
const browserCode = '^src/web/report/client/';
const services = '^src/services[.]ts$';
const test = '[.]test[.]ts$';

/** `from` (a module of src/, not a test) may not import `to` */
const forbid = (name, comment, from, to) => ({
  name,
  comment,
  severity: 'error',
  from: { path: from, pathNot: test },
  to: { path: to },
});

module.exports = {
  forbidden: [
    { name: 'no-circular', comment: 'a cycle makes two modules one', severity: 'error', from: {}, to: { circular: true } },
    forbid('foundation-imports-nothing-above', 'errors, config, log, validation and net/ sit below every layer', foundation, `^src/(probes|platform|loaders|jobs|graphql|checks|graphql-server|rest|web)/|${services}|${top}`),
    forbid('probes-import-nothing-above', 'probes own their types, parsers and errors', '^src/probes/', `^src/(platform|loaders|jobs|graphql|checks|graphql-server|rest|web)/|${services}|${top}`),
    forbid('platform-below-loaders', 'platform serves every layer above probes and knows none of them', '^src/platform/', `^src/(loaders|jobs|graphql|checks|graphql-server|rest|web)/|${services}|${top}`),
    forbid('loaders-below-services', 'the check context knows probes and platform, not the checks using it', '^src/loaders/', `^src/(jobs|graphql|checks|graphql-server|rest|web)/|${services}|${top}`),
    forbid('services-below-jobs', 'the services type gathers the layers below it', services, `^src/(jobs|graphql|checks|graphql-server|rest|web)/|${top}`),
    forbid('jobs-below-graphql', 'jobs know the tools they run only through their port (jobs/job-tools.ts), which the REST layer implements', '^src/jobs/', `^src/(graphql|checks|graphql-server|rest|web)/|${top}`),
    forbid('graphql-below-checks', "a declaration's tools know no check", '^src/graphql/', `^src/(checks|graphql-server|rest|web)/|${top}`),
    forbid('checks-below-graphql-server', 'checks reach the outside only through the check context', '^src/checks/', `^src/(platform|jobs|graphql-server|rest|web)/|${services}|${top}`),
    forbid('graphql-server-below-rest', 'the schema does not know the REST shim or the pages', '^src/graphql-server/', '^src/(rest|web)/|' + top),
    forbid('rest-below-web', 'the REST shim does not know the pages', '^src/rest/', '^src/web/|' + top),
    forbid('web-below-top', 'pages do not know the composition root', '^src/web/', top),
    forbid('cluster-stays-light', "the primary holds ledgers and forks workers: the schema and its checks would cost it a worker's memory (docs/performance.md \"Measured reasons behind design choices\")", '^src/cluster/', '^src/(loaders|graphql|checks|graphql-server|rest|web)/|^src/(app|create-services|http-server|job-worker)[.]ts$|^src/jobs/(?!job-bus[.]ts$)|^src/monitors/(?!runtime/monitor-bus[.]ts$)'),
    forbid('monitors-read-plain-data', 'monitors/ diffs, judges and stores plain JSON answers: the foundation and the embedded database, nothing of the checks, schema or routes that produce the answers (runtime/ runs them)', '^src/monitors/(?!runtime/)', `^src/(probes|loaders|graphql|checks|graphql-server|rest|web|jobs)/|^src/platform/(?!embedded-db[.]ts$)|${services}|${top}`),
    forbid('monitors-runtime-beside-jobs', "monitors/runtime/ runs monitors as jobs run items: jobs' tool port, slots and signed delivery, the platform and services; nothing of the checks, schema or routes", '^src/monitors/runtime/', `^src/(probes|loaders|graphql|checks|graphql-server|rest|web)/|${top}`),
    forbid('monitors-above-platform', 'monitors/ sits beside graphql-server/ and rest/, which will use it; the layers below do not know it', `${foundation}|^src/(probes|platform|loaders|checks)/`, '^src/monitors/'),
    {
      name: 'report-client-runs-in-browsers',
      comment: "the report page's script is bundled for browsers: its own modules and the report's pure ones, no Node module",
      severity: 'error',
      from: { path: browserCode },
      to: { pathNot: `${browserCode}|${reportPure}|^node_modules/meros/` },
    },
    {
      name: 'report-modules-are-pure',
      comment: 'sections, findings and verdicts are bundled into the browser script and the command alike: they import only each other',
      severity: 'error',
      from: { path: reportPure },
      to: { pathNot: reportPure },
    },
    forbid('service-imports-no-browser-code-or-command', 'the page script and the command use the service, never the reverse', '^src/(?!cli/|web/report/client/)', `${browserCode}|^src/cli/`),
    forbid('src-does-not-import-tests', 'tests, benchmarks and scripts use src/, never the reverse', '^src/', `^(test|bench|scripts)/|${test}`),
    {
      name: 'only-tests-import-test-helpers',
      comment: "a test beside the code may use test/'s helpers and labs; test/ itself is not src/",
      severity: 'error',
      from: { path: '^src/', pathNot: test },
      to: { path: '^test/' },
    },
    {
      name: 'no-dev-dependencies-in-src',
      comment: 'the service runs with production dependencies only (npm ci --omit=dev)',
      severity: 'error',
      from: { path: '^src/', pathNot: test },
      to: { dependencyTypes: ['npm-dev'], dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'no-undeclared-dependencies',
      comment: 'a package imported by src/ is declared in package.json',
      severity: 'error',
      from: { path: '^src/' },
      to: { dependencyTypes: ['npm-no-pkg', 'npm-unknown'] },
    },
    {
      name: 'no-unresolvable',
      comment: 'every import resolves (a type-only package such as @graphql-typed-document-node/core has no module to resolve)',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true, dependencyTypesNot: ['type-only'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      // a types-only package (@graphql-typed-document-node/core) names its declarations in "typings"
      mainFields: ['module', 'main', 'types', 'typings'],
      extensions: ['.ts', '.js', '.mjs', '.cjs', '.json', '.d.ts'],
    },
  },
};
