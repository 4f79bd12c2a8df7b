// Builds agent.js into {{name}}.wasm (or the file named as the first argument), a WebAssembly
// component of world `{{world}}` of the WIT package in wit/, with @bytecodealliance/componentize-js (`npm install` installs it).
//
// A Little Animal Farm agent is built for world `farm-json` (wit/farm.wit): a glue module
// (.arena-glue.js, written here and removed after) exports that world and hands agent.js's
// `trade` and `acceptOffer` the view of one `JSON.parse`, objects of the same shape as world
// `farm`'s, for about half the fuel of a decision. ARENA_FARM_WORLD=farm builds agent.js for
// world `farm` as it is.
import { rm, writeFile } from 'node:fs/promises';
import { componentize } from '@bytecodealliance/componentize-js';

const world = '{{world}}';
const glue = world === 'farm' && process.env.ARENA_FARM_WORLD !== 'farm'
  ? '.arena-glue.js'
  : null;
if (glue) {
  await writeFile(glue, `// Written by build.mjs: world farm-json for agent.js.
import * as agent from './agent.js';
for (const f of ['init', 'trade', 'acceptOffer']) {
  if (typeof agent[f] !== 'function') throw new Error('agent.js exports no function ' + f);
}
export function init(setup) { return agent.init(setup); }
export function trade(view) { return agent.trade(JSON.parse(view)); }
export function acceptOffer(view, offer) { return agent.acceptOffer(JSON.parse(view), offer); }
`);
}

let component;
let failure;
try {
  ({ component } = await componentize({
    sourcePath: glue ?? 'agent.js',
    witPath: 'wit',
    worldName: glue ? 'farm-json' : world,
    // No fetch() and no HTTP server; console.log (stdio) goes to the agent's log, Math.random
    // and Date.now are derived from the game seed by the arena.
    disableFeatures: ['http', 'fetch-event'],
  }));
} catch (e) {
  failure = e;
}
if (glue) await rm(glue, { force: true });
if (failure) {
  // The tool's message names the problem (a missing export, a syntax error); its stack does not.
  console.error(`agent.js: ${failure.message}`);
  process.exit(1);
}
const output = process.argv[2] ?? '{{name}}.wasm';
await writeFile(output, component);
console.log(`${output}: ${component.length} bytes (world ${glue ? 'farm-json' : world})`);
