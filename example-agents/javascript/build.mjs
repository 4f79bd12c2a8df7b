// Builds a JavaScript agent into a WebAssembly component of one arena world, with
// @bytecodealliance/componentize-js (installed by `npm ci` or `npm install` in this folder).
//
//   node build.mjs WORLD SOURCE.js OUT.wasm     (WORLD: farm, farkle, jungle or lightcycles)
//
// The environment variable ARENA_WIT names the WIT package; by default it is the wit/ folder next
// to this file (a project of `arena new --lang javascript`, whose `npm run build` runs this
// script), else ../../wit from it (the arena's sources, for example-agents/javascript/).
//
// A farm agent is built for world `farm-json` (wit/farm.wit): a glue module written next to the
// source exports that world and hands the agent's own `trade` and `acceptOffer` the view of one
// `JSON.parse`, objects of the same shape as world `farm`'s, for about half the fuel of a
// decision (docs/COMPONENTS.md). The source is unchanged; ARENA_FARM_WORLD=farm builds it for
// world `farm` as it is.
import { existsSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { componentize } from '@bytecodealliance/componentize-js';

const [world, source, out] = process.argv.slice(2);
if (!world || !source || !out) {
  console.error('usage: node build.mjs WORLD SOURCE.js OUT.wasm   (WORLD: farm, farkle, jungle or lightcycles)');
  process.exit(2);
}
const here = dirname(fileURLToPath(import.meta.url));
const witPath = resolve(
  process.env.ARENA_WIT ?? (existsSync(join(here, 'wit')) ? join(here, 'wit') : resolve(here, '../../wit')),
);

// The glue of world `farm-json` for the agent module `file` (in the same folder).
const farmJsonGlue = (file) => `// Written by the arena's build: world farm-json for ${file}.
import * as agent from ${JSON.stringify(`./${file}`)};
for (const f of ['init', 'trade', 'acceptOffer']) {
  if (typeof agent[f] !== 'function') throw new Error(${JSON.stringify(file)} + ' exports no function ' + f);
}
export function init(setup) { return agent.init(setup); }
export function trade(view) { return agent.trade(JSON.parse(view)); }
export function acceptOffer(view, offer) { return agent.acceptOffer(JSON.parse(view), offer); }
`;
const glue = world === 'farm' && process.env.ARENA_FARM_WORLD !== 'farm'
  ? join(dirname(resolve(source)), '.arena-glue.js')
  : null;
if (glue) await writeFile(glue, farmJsonGlue(basename(source)));

let component;
let failure;
try {
  ({ component } = await componentize({
    sourcePath: glue ?? resolve(source),
    witPath,
    worldName: glue ? 'farm-json' : world,
    // No fetch() and no HTTP server; console.log/console.error (stdio) go to the agent's log,
    // Math.random (random) and Date.now (clocks) are derived from the game seed by the arena.
    disableFeatures: ['http', 'fetch-event'],
  }));
} catch (e) {
  failure = e;
}
if (glue) await rm(glue, { force: true });
if (failure) {
  // The tool's message names the problem (a missing export, a syntax error); its stack does not.
  console.error(`${source}: ${failure.message}`);
  process.exit(1);
}
await writeFile(out, component);
console.log(`${out}: ${component.length} bytes (world ${glue ? 'farm-json' : world}, WIT ${witPath})`);
