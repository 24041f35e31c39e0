# One image for every Cairn process; docker-compose.yml picks the command
# (npm run worker | web | setup-cluster). TypeScript runs through tsx, a runtime dependency.
FROM node:20.19.5-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts && npm cache clean --force
COPY tsconfig.json ./
COPY config ./config
COPY workflows ./workflows
COPY activities ./activities
COPY llm-servers ./llm-servers
COPY worker ./worker
COPY client ./client
COPY scripts ./scripts
# The worker's data volume (workspace and ledger) mounts here; a new volume takes this owner.
RUN mkdir -p /data && chown node:node /data
USER node
CMD ["npm", "run", "worker"]
