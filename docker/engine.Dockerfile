# The engine image: `engine` on the PATH, `engine server` by default, as a non-root user.
# Built from the repository root: docker build -f docker/engine.Dockerfile -t engine .
FROM node:24-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json tsconfig.json tsconfig.base.json ./
COPY engine/package.json engine/
COPY operator/package.json operator/
COPY e2e/package.json e2e/
RUN npm ci --no-audit --no-fund --workspace engine --include-workspace-root
COPY engine engine
RUN npx tsc -b engine engine/ui && node engine/dist/src/cli/main.js config-schema > engine/dist/config.schema.json \
  && node engine/dist/scripts/precompile-validators.js
# Only what the engine needs at run time.
RUN npm ci --no-audit --no-fund --omit=dev --workspace engine

FROM node:24-bookworm-slim
ENV NODE_ENV=production
# glibc's allocator gives freed memory back to the system (engine/src/config/memory-budget.ts ALLOCATOR_ENV).
ENV MALLOC_ARENA_MAX=2 MALLOC_MMAP_THRESHOLD_=16384 MALLOC_TRIM_THRESHOLD_=65536
# The young generation the memory budgets assume (engine/src/config/memory-budget.ts SEMI_SPACE_MB); the operator sets it with the heap.
ENV NODE_OPTIONS=--max-semi-space-size=16
WORKDIR /opt/engine
COPY --from=build /src/node_modules node_modules
COPY --from=build /src/engine/package.json engine/package.json
COPY --from=build /src/engine/bin engine/bin
COPY --from=build /src/engine/dist/src engine/dist/src
# The web interface: its compiled browser code and its style sheet (its libraries are in node_modules).
COPY --from=build /src/engine/dist/ui engine/dist/ui
COPY --from=build /src/engine/ui/static engine/ui/static
COPY --from=build /src/engine/dist/config.schema.json engine/dist/config.schema.json
RUN ln -s /opt/engine/engine/bin/engine.js /usr/local/bin/engine && chmod +x engine/bin/engine.js
USER 10001:10001
EXPOSE 8080
ENTRYPOINT ["engine"]
CMD ["server"]
