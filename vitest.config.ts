import { defineConfig } from 'vitest/config'

// One Vitest run covers every workspace; each workspace's own config sets its environment.
export default defineConfig({
  test: {
    projects: ['shared', 'sync', 'api', 'pwa'],
  },
})
