# The operator image: `engine-operator`, as a non-root user. It needs only a few small modules of the
# engine package (the internal token, the node client and its error, the node workload, the memory
# budget and data sizes), copied beside its own code.
# Built from the repository root: docker build -f docker/operator.Dockerfile -t engine-operator .
FROM node:24-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json tsconfig.json tsconfig.base.json ./
COPY engine/package.json engine/
COPY operator/package.json operator/
COPY e2e/package.json e2e/
RUN npm ci --no-audit --no-fund --workspace engine --workspace operator --include-workspace-root
COPY engine engine
COPY operator operator
RUN npx tsc -b operator
# The operator's own dependencies at run time (@kubernetes/client-node, pino), not the engine's.
RUN mkdir /runtime && cd /runtime && cp /src/operator/package.json . \
 && node -e "const p=require('./package.json'); delete p.dependencies.engine; delete p.devDependencies; require('fs').writeFileSync('package.json', JSON.stringify(p))" \
 && npm install --no-audit --no-fund --omit=dev

FROM node:24-bookworm-slim
ENV NODE_ENV=production
WORKDIR /opt/engine-operator
COPY --from=build /runtime/node_modules node_modules
COPY --from=build /src/engine/package.json node_modules/engine/package.json
COPY --from=build /src/engine/dist/src/server/internal-auth/internal-token.js node_modules/engine/dist/src/server/internal-auth/internal-token.js
COPY --from=build /src/engine/dist/src/server/node-workload.js node_modules/engine/dist/src/server/node-workload.js
COPY --from=build /src/engine/dist/src/cli/client/node-client.js /src/engine/dist/src/cli/client/client-error.js node_modules/engine/dist/src/cli/client/
COPY --from=build /src/engine/dist/src/config/memory-budget.js /src/engine/dist/src/config/data-size.js node_modules/engine/dist/src/config/
COPY --from=build /src/operator/package.json package.json
COPY --from=build /src/operator/dist/src dist/src
USER 10001:10001
ENTRYPOINT ["node", "/opt/engine-operator/dist/src/main.js"]
