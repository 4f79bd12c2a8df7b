// Builds agent.js into {{name}}.wasm (or the file named as the first argument), a WebAssembly
// component of world `{{world}}` of the WIT package in wit/, with @bytecodealliance/componentize-js (`npm install` installs it).
import { writeFile } from 'node:fs/promises';
import { componentize } from '@bytecodealliance/componentize-js';

let component;
try {
  ({ component } = await componentize({
    sourcePath: 'agent.js',
    witPath: 'wit',
    worldName: '{{world}}',
    // No fetch() and no HTTP server; console.log (stdio) goes to the agent's log, Math.random
    // and Date.now are derived from the game seed by the arena.
    disableFeatures: ['http', 'fetch-event'],
  }));
} catch (e) {
  // The tool's message names the problem (a missing export, a syntax error); its stack does not.
  console.error(`agent.js: ${e.message}`);
  process.exit(1);
}
const output = process.argv[2] ?? '{{name}}.wasm';
await writeFile(output, component);
console.log(`${output}: ${component.length} bytes (world {{world}})`);
