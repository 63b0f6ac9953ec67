#!/usr/bin/env node
// The `orchsim` command: registers the TypeScript loader, then runs the CLI (no build step).
import './register.js';

await import('./main.ts');
