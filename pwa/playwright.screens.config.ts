/**
 * The screenshots kept in docs/screenshots/: the dashboard, a buble page and its chat at a phone's and a laptop's
 * size, taken from the built PWA on the same server the browser tests use. `npm run screenshots` (stage "after" by
 * default; `SCREENSHOTS_STAGE=before` to record a starting point).
 */

import { defineConfig } from '@playwright/test'
import base from './playwright.config.ts'

export default defineConfig({ ...base, testDir: './e2e-screens' })
