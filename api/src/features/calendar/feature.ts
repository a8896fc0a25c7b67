import { Hono } from 'hono'
import type { Deps } from '../../deps.ts'
import type { AppEnv } from '../../lib/auth.ts'
import type { ContentAddedBus } from '../../lib/content-added.ts'
import { defineFeature } from '../../lib/feature.ts'
import { reminderJob } from './reminders.ts'
import { calendarFeedRoutes, calendarSettingsRoutes } from './routes.ts'
import { calendarService } from './service.ts'

/** Event reminders and each member's private calendar feed (decision 96). */
export function calendarFeature(deps: Deps, contentAdded: ContentAddedBus) {
  const calendar = calendarService(deps)
  return defineFeature({
    service: calendar,
    routes: new Hono<AppEnv>()
      .route('/users/calendar', calendarSettingsRoutes(calendar))
      .route('/calendar', calendarFeedRoutes(calendar)),
    jobs: [reminderJob((notice) => contentAdded.committed(notice))],
  })
}
