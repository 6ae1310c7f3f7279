# The README's commands. Each target installs what it needs on a fresh machine.
SHELL := /bin/bash
NODE_MODULES := node_modules/.package-lock.json

.PHONY: install build run test bench lint clean

$(NODE_MODULES): package.json engine/package.json package-lock.json
	npm ci --no-audit --no-fund
	@touch $(NODE_MODULES)

install: $(NODE_MODULES)

# Compiles engine/src, engine/test and engine/scripts to engine/dist and publishes the
# configuration schema as engine/dist/config.schema.json.
build: install
	npx tsc -b
	node engine/dist/src/cli/main.js config-schema > engine/dist/config.schema.json

# `make run ARGS="--port 9090 --log-level debug"` passes flags to `engine server`.
run: build
	node engine/dist/src/cli/main.js server $(ARGS)

# Unit and integration tests, then the sqllogictest gate (the select*.test files must pass at 97%).
test: build
	cd engine && npx mocha
	node engine/dist/scripts/sqllogictest.js --gate select=97

bench: build
	node engine/dist/scripts/bench.js $(ARGS)

lint: build

clean:
	rm -rf engine/dist
