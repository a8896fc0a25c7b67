import { defineConfig } from 'vitest/config'

// Three server processes cannot share the embedded PGlite: the cluster test runs only against PostgreSQL
// (scripts/test.mjs says in one loud line when it is left out).
const needsPostgres = ['src/testing/cluster.test.ts']

export default defineConfig({
  test: {
    name: 'api',
    include: ['src/**/*.test.ts', 'bench/**/*.test.ts'],
    exclude: ['**/node_modules/**', ...(process.env.TEST_DATABASE_URL ? [] : needsPostgres)],
    setupFiles: ['src/testing/vitest-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
})
