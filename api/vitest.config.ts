import { defineConfig } from 'vitest/config'

// Three server processes cannot share the embedded PGlite, nor can writes in flight beside a pull
// (one connection): these run only against PostgreSQL (scripts/test.mjs says in one loud line when
// they are left out).
const needsPostgres = [
  'src/testing/cluster.test.ts',
  'src/features/sync/settled-pull.test.ts',
  'src/features/sync/chaos.test.ts',
  'src/boot-wait.test.ts',
]

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
