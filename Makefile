# The README's commands. Each target installs what it needs on a fresh machine.
SHELL := /bin/bash
NODE_MODULES := node_modules/.package-lock.json

.PHONY: install build run test bench lint clean

$(NODE_MODULES): package.json engine/package.json package-lock.json
	npm ci --no-audit --no-fund
	@touch $(NODE_MODULES)

install: $(NODE_MODULES)

build: install
	npx tsc -b

run: build
	node engine/dist/src/cli/main.js server

test: build
	cd engine && npx mocha

bench: build
	node engine/dist/scripts/bench.js $(ARGS)

lint: build

clean:
	rm -rf engine/dist
