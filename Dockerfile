# The Pet Store service as an OCI image (docs/operations.md, "Containers"):
#
#   docker build -t petstore .
#   docker run -p 3000:3000 -e API_KEYS=team:<a key of 16 or more characters> -v petstore-data:/data petstore
#
# The bases are build arguments, the official Node images by default: test/slow/container.e2e-spec.ts builds this
# file from local ones, made with debootstrap, on a machine without a container daemon or an image registry.
ARG BUILD_BASE=node:24-bookworm
ARG RUNTIME_BASE=node:24-bookworm-slim

# Build: the dependencies (sqlite3's native driver compiles here: python3, make and g++ come with the full Node image),
# the service compiled to dist/, then the development dependencies removed.
FROM ${BUILD_BASE} AS build
# tini, the container's first process: it passes signals on to Node and reaps orphaned processes.
RUN apt-get update && apt-get install -y --no-install-recommends tini && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm ci
COPY tsconfig.json nest-cli.json ./
COPY apps apps
COPY libs libs
# --legacy-peer-deps: typescript and better-sqlite3 are development dependencies that are also optional peers of
# runtime packages (@nestjs/swagger, typeorm), which npm would keep otherwise. Source maps, type declarations and
# sqlite3's build leftovers are not read at run time: without them the dependencies take 90 MB, not 250.
RUN npm run build \
 && npm prune --omit=dev --legacy-peer-deps \
 && find node_modules dist -type f \( -name '*.map' -o -name '*.d.ts' -o -name '*.d.mts' -o -name '*.d.cts' \) -delete \
 && mv node_modules/sqlite3/build/Release/node_sqlite3.node /tmp/ \
 && rm -rf node_modules/sqlite3/build node_modules/sqlite3/deps node_modules/sqlite3/src \
 && mkdir -p node_modules/sqlite3/build/Release && mv /tmp/node_sqlite3.node node_modules/sqlite3/build/Release/

# Run: production dependencies and the compiled service only, as the unprivileged `node` user of the Node image.
FROM ${RUNTIME_BASE}
# The release, as package.json says it (test/slow/container.e2e-spec.ts checks they agree), and where its source is.
ARG VERSION=2.0.0
ARG SOURCE=""
ARG REVISION=""
LABEL org.opencontainers.image.title="Pet Store service" \
      org.opencontainers.image.description="A pet catalogue HTTP API (NestJS on Fastify, SQLite or PostgreSQL)" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.licenses="UNLICENSED" \
      org.opencontainers.image.source="${SOURCE}" \
      org.opencontainers.image.revision="${REVISION}"
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATABASE_URL=sqlite:/data/petstore.sqlite
COPY --from=build /usr/bin/tini-static /usr/bin/tini
WORKDIR /app
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules node_modules
COPY --from=build /app/dist dist
# The SQLite database's folder: a volume, so that the root file system may be read-only (docker run --read-only,
# readOnlyRootFilesystem); Node's compile cache goes to /tmp when it may be written (a tmpfs), and is skipped when not.
RUN mkdir /data && chown node:node /data
VOLUME /data
USER node
EXPOSE 3000
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "--max-semi-space-size=8", "dist/apps/petstore/src/main.js"]
