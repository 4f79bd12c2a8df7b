// Builds a JavaScript agent into a WebAssembly component of one arena world, with
// @bytecodealliance/componentize-js (installed by `npm ci` in this folder).
//
//   node build.mjs WORLD SOURCE.js OUT.wasm     (WORLD: farm, farkle or jungle)
//
// The environment variable ARENA_WIT names the WIT package (default: ../../wit from this file).
import { writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { componentize } from '@bytecodealliance/componentize-js';

const [world, source, out] = process.argv.slice(2);
if (!world || !source || !out) {
  console.error('usage: node build.mjs WORLD SOURCE.js OUT.wasm   (WORLD: farm, farkle or jungle)');
  process.exit(2);
}
const here = dirname(fileURLToPath(import.meta.url));
const witPath = resolve(process.env.ARENA_WIT ?? resolve(here, '../../wit'));

let component;
try {
  ({ component } = await componentize({
    sourcePath: resolve(source),
    witPath,
    worldName: world,
    // No fetch() and no HTTP server; console.log/console.error (stdio) go to the agent's log,
    // Math.random (random) and Date.now (clocks) are derived from the game seed by the arena.
    disableFeatures: ['http', 'fetch-event'],
  }));
} catch (e) {
  // The tool's message names the problem (a missing export, a syntax error); its stack does not.
  console.error(`${source}: ${e.message}`);
  process.exit(1);
}
await writeFile(out, component);
console.log(`${out}: ${component.length} bytes (world ${world}, WIT ${witPath})`);
