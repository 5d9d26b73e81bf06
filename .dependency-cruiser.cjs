/**
 * The import rules of src/ (docs/architecture.md, "The order of the folders"), checked by
 * `npm run lint` (dependency-cruiser): a folder imports only from folders before it in LAYERS,
 * and no file takes part in an import cycle, type-only imports included.
 */

/** The written order, lowest first; folders on one line are peers and do not import each other. */
const LAYERS = [
  ['domain'],
  ['catalog'],
  ['book'],
  ['markets'],
  ['pricing'],
  ['store'],
  ['attributes', 'liquidity'],
  ['events'],
  ['access', 'ingest', 'schema', 'inventory'],
  ['metrics'],
  ['http'],
  ['terminal'],
  ['web'],
  ['config'],
  ['boot'],
  ['main'],
  ['cli'],
  ['bin'],
];

/** Where a folder's files are: `src/<name>/…`, or the one file `src/<name>.ts`, or bin/. */
function pathOf(name) {
  if (name === 'bin') return '^bin/';
  return `^src/(${name}/|${name}\\.ts$)`;
}

/** Tests sit next to the code they test but exercise it from above; the order binds the rest. */
const TESTS = '\\.test\\.ts$';

function folderRule(layer, index) {
  const notBefore = LAYERS.slice(index).flat();
  if (notBefore.length === 1) return [];
  return layer.map((name) => ({
    name: `folder-order-${name}`,
    severity: 'error',
    comment: `${name} imports only from folders before it: ${LAYERS.slice(0, index).flat().join(', ') || 'none'}`,
    from: { path: pathOf(name), pathNot: TESTS },
    to: { path: notBefore.filter((other) => other !== name).map(pathOf) },
  }));
}

module.exports = {
  forbidden: [
    ...LAYERS.flatMap(folderRule),
    {
      name: 'no-cycles',
      severity: 'error',
      comment: 'no file imports itself through others (type-only imports count too)',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    includeOnly: '^(src|bin)/',
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.mjs', '.js', '.cjs', '.json'],
    },
    moduleSystems: ['es6', 'cjs'],
    reporterOptions: {
      archi: { collapsePattern: '^(src/[^/]+|bin)/|^src/[^/]+\\.ts$' },
      dot: { collapsePattern: '^(src/[^/]+|bin)/|^src/[^/]+\\.ts$' },
    },
  },
};
