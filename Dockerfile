# syntax=docker/dockerfile:1
# Multi-stage build on the Node.js 24 image. Node 24 runs the TypeScript sources directly
# (type stripping), so there is no compile stage: the first stage only installs production
# dependencies, the second copies them next to the sources and drops root.

FROM node:24-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# --ignore-scripts: the `node` dev dependency (which pins Node 24 for bare-metal installs) is not
# needed inside the Node 24 image, and no production dependency has an install script.
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund

FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production \
    DATA_DIR=/data
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY package.json ./
COPY src ./src
COPY config ./config
# Owner-only: the upstream keeps its admin token and embedded store here (and narrows a wider mode at start).
RUN mkdir -p -m 0700 /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8080 3000 3001 9464
# The compose file chooses the role: `upstream` or `gateway`.
ENTRYPOINT ["node", "src/cli/main.ts"]
CMD ["gateway"]
