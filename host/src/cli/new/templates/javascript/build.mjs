// Builds agent.js into agent.wasm, a WebAssembly component of world `{{world}}` of the WIT
// package in wit/, with @bytecodealliance/componentize-js (`npm install` installs it).
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
await writeFile('agent.wasm', component);
console.log(`agent.wasm: ${component.length} bytes (world {{world}})`);
