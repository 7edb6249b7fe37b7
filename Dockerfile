# One image for the three apps; docker-compose.yml picks the command.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json nest-cli.json ./
COPY apps apps
COPY libs libs
COPY scripts scripts
RUN npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY --from=build /app/node_modules node_modules
COPY --from=build /app/dist dist
COPY --from=build /app/package.json package.json
COPY config config
COPY contracts contracts
USER node
# Heap limits per app (docs/benchmarks.md, "Memory"); docker-compose.yml gives each app its own command.
CMD ["node", "--max-semi-space-size=8", "--max-old-space-size=128", "dist/apps/ingress/src/main.js"]
