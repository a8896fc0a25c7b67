import react from '@vitejs/plugin-react'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  plugins: [react()],
  test: {
    name: 'pwa',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['src/test/setup.ts'],
    // Room for a few of Testing Library's 5-second waits (src/test/setup.ts) on a loaded machine.
    testTimeout: 20_000,
  },
})
