# syntax=docker/dockerfile:1
# The gateway as a container: built with the full toolchain, run with production dependencies only,
# as the unprivileged `node` user, started by `node` itself (PID 1 receives SIGTERM and drains; `npm
# start` would not pass the signal on). Node 26 is the Active LTS line, and CI runs the whole suite on it.
ARG NODE_VERSION=26

# 1. Compile TypeScript to dist/ and bundle the demo page's script into dist/demo/assets.
FROM node:${NODE_VERSION}-trixie-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/client/package.json ./packages/client/
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY packages/client ./packages/client
COPY src ./src
RUN npm run build

# 2. Production dependencies only: no compiler, bundler, test runner or sandbox package.
FROM node:${NODE_VERSION}-trixie-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/client/package.json ./packages/client/
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

# 3. The runtime image. Files stay owned by root: the server can read its code but not change it.
FROM node:${NODE_VERSION}-trixie-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    METRICS_PORT=9091
WORKDIR /app
COPY package.json ./
COPY --from=deps /app/node_modules ./node_modules
# The typed client workspace (node_modules links to it), which the package exports as swap-gateway/client.
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
