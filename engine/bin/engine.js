#!/usr/bin/env node
// The `engine` command. A launcher that exists before the build, so that `npm ci` links it as the
// workspace's bin (`npx engine ...` from the repository root); it runs the compiled CLI.
import '../dist/src/cli/main.js';
