// `node --import ./sim/cli/register.js file.ts` runs a TypeScript entry point with orchsim's
// loader (typescript-hooks.js); stack traces point into the .ts sources.
import { register } from 'node:module';

register('./typescript-hooks.js', import.meta.url);
process.setSourceMapsEnabled(true);
