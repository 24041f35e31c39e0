# One image for every Cairn process, run from the production build with plain node (no tsx, no
# TypeScript): docker-compose.yml picks the entry point —
#   node dist/worker/main.js                        a worker (the default)
#   node dist/client/http/main.js                   the web page and HTTP API
#   node dist/scripts/register-search-attributes.js registers Cairn's search attributes once
#   node dist/client/cli/main.js                    the cairn CLI

# Build stage: every dependency (TypeScript, the workflow bundler), then `npm run build`: the
# compiled JavaScript in dist/ and the workflow bundle, made once here instead of at every start.
FROM node:24.21.0-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts
COPY tsconfig.json tsconfig.build.json ./
COPY cairn.ts ./cairn.ts
COPY config ./config
COPY temporal ./temporal
COPY workflows ./workflows
COPY activities ./activities
COPY llm-servers ./llm-servers
COPY worker ./worker
COPY client ./client
COPY scripts ./scripts
RUN npm run build

# Runtime stage: production dependencies and the build only.
FROM node:24.21.0-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts && npm cache clean --force
COPY --from=build /app/dist ./dist
# The worker's data volume (workspace and ledger) mounts here; a new volume takes this owner.
RUN mkdir -p /data && chown node:node /data
USER node
# node itself is PID 1 (exec form, no npm in between), so `docker stop`'s SIGTERM reaches Cairn;
# the worker and the web server handle it themselves (PID 1 gets no default signal action) and
# drain, then exit.
CMD ["node", "dist/worker/main.js"]
