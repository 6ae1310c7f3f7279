#!/usr/bin/env node
// `npx kube-test-cluster up|down|status|run`: see e2e/src/cluster/cli.ts (run `make build` first).
import "../dist/src/cluster/cli.js";
