# syntax=docker/dockerfile:1
# The gateway as a container: built with the full toolchain, run with production dependencies only,
# as the unprivileged `node` user, started by `node` itself (PID 1 receives SIGTERM and drains; `npm
# start` would not pass the signal on). Node 22 is an LTS line; bump NODE_VERSION to 24 when ready.
ARG NODE_VERSION=22

# 1. Compile TypeScript to dist/.
FROM node:${NODE_VERSION}-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/client/package.json ./packages/client/
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY packages/client ./packages/client
COPY src ./src
RUN npm run build

# 2. Production dependencies only (no TypeScript, tap, tsx, eslint...).
FROM node:${NODE_VERSION}-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/client/package.json ./packages/client/
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

# 3. The runtime image. Files stay owned by root: the server can read its code but not change it.
FROM node:${NODE_VERSION}-bookworm-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    METRICS_PORT=9091
WORKDIR /app
COPY package.json ./
COPY --from=deps /app/node_modules ./node_modules
# The typed client workspace, which the demo page bundles (node_modules links to it).
COPY --from=build /app/packages/client/package.json ./packages/client/
COPY --from=build /app/packages/client/dist ./packages/client/dist
COPY --from=build /app/dist ./dist
USER node
# 8080: the public API. 9091: /metrics, for the internal network only.
EXPOSE 8080 9091
HEALTHCHECK --interval=15s --timeout=3s --start-period=15s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/healthz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
STOPSIGNAL SIGTERM
CMD ["node", "dist/server.js"]
