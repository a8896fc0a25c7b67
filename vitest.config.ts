import { defineConfig } from 'vitest/config'

// One Vitest run covers every workspace; each workspace's own config sets its environment.
export default defineConfig({
  test: {
    projects: ['shared', 'sync', 'api', 'pwa'],
    // Two files at a time. Vitest's default in a run is one fewer than the cores, which is one file at a
    // time on a 2-core machine; an API file waits on PostgreSQL, its servers and timers for most of
    // its run (75–85 % idle measured on bubles/routes.test.ts), so a second file fills that wait.
    // Each file has its own databases (testing/databases.ts), so files share nothing.
    maxWorkers: 2,
  },
})
