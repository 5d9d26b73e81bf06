/**
 * `npm run deps:graph`: draws the folder-level import graph of src/ and bin/ from
 * dependency-cruiser's JSON (the rules of .dependency-cruiser.cjs) and writes it into
 * docs/architecture.md between the deps-graph markers: a mermaid picture of the direct imports
 * no longer path already implies (the transitive reduction), then every folder's direct
 * imports in a table. Test files are left out, as in the rules. `--check` writes nothing and
 * exits 1 when the page is out of date.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
const PAGE = join(ROOT, 'docs', 'architecture.md');
const START = '<!-- deps-graph:start (npm run deps:graph) -->';
const END = '<!-- deps-graph:end -->';
const TEST = /\.test\.ts$/;

function cruise() {
  const bin = join(ROOT, 'node_modules', '.bin', 'depcruise');
  const args = ['src', 'bin', '--config', '.dependency-cruiser.cjs', '--output-type', 'json'];
  const out = execFileSync(bin, args, { cwd: ROOT, maxBuffer: 256 * 1024 * 1024 });
  return JSON.parse(out.toString('utf8')).modules;
}

/** `src/http/app.ts` → `http`, `src/main.ts` → `main`, `bin/pricing.js` → `bin`. */
function folderOf(path) {
  const match = /^(?:src\/([^/]+?)(?:\/|\.ts$)|(bin)\/)/.exec(path);
  return match ? (match[1] ?? match[2]) : null;
}

function folderEdges(modules) {
  const edges = new Map();
  for (const module of modules) {
    const from = folderOf(module.source);
    if (!from || TEST.test(module.source)) continue;
    if (!edges.has(from)) edges.set(from, new Set());
    for (const dependency of module.dependencies) {
      const to = folderOf(dependency.resolved);
      if (to && to !== from) edges.get(from).add(to);
    }
  }
  return edges;
}

function reaches(edges, from, to, skip) {
  const seen = new Set();
  const stack = [...(edges.get(from) ?? [])].filter((next) => next !== skip);
  while (stack.length > 0) {
    const at = stack.pop();
    if (at === to) return true;
    if (seen.has(at)) continue;
    seen.add(at);
    stack.push(...(edges.get(at) ?? []));
  }
  return false;
}

/** The edges no other path implies (the graph is acyclic, so this is its transitive reduction). */
function reduced(edges) {
  const kept = [];
  for (const [from, targets] of edges) {
    for (const to of targets) if (!reaches(edges, from, to, to)) kept.push([from, to]);
  }
  return kept.sort((a, b) => a[0].localeCompare(b[0]) || a[1].localeCompare(b[1]));
}

function section(edges) {
  const folders = [...edges.keys()].sort();
  const arrows = reduced(edges).map(([from, to]) => `  ${from} --> ${to}`);
  const rows = folders.map((folder) => {
    const targets = [...edges.get(folder)].sort();
    return `| \`${folder}\` | ${targets.map((to) => `\`${to}\``).join(', ') || '(nothing)'} |`;
  });
  return [
    START,
    '',
    'An arrow runs from a folder to one it imports; an import that a longer path already',
    'implies is not drawn, the table lists them all (test files left out).',
    '',
    '```mermaid',
    'flowchart TD',
    ...arrows,
    '```',
    '',
    '| folder | imports directly from |',
    '|---|---|',
    ...rows,
    '',
    END,
  ].join('\n');
}

function updatedPage(text, fresh) {
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  if (start < 0 || end < start) throw new Error(`${PAGE} lacks the deps-graph markers`);
  return text.slice(0, start) + fresh + text.slice(end + END.length);
}

const current = readFileSync(PAGE, 'utf8');
const next = updatedPage(current, section(folderEdges(cruise())));
if (process.argv.includes('--check')) {
  if (next !== current) {
    console.error(
      'docs/architecture.md: the dependency picture is out of date; run npm run deps:graph',
    );
    process.exit(1);
  }
} else if (next !== current) {
  writeFileSync(PAGE, next);
  console.log('docs/architecture.md: dependency picture updated');
}
