/**
 * Every PostgreSQL advisory lock key Buble takes, in one list: two jobs that shared a key would
 * wait for each other (issue 23 found one such pair), and a new job's key is picked here.
 * `advisory-locks.test.ts` checks that no two are the same.
 */
export const ADVISORY_LOCKS = {
  /** Migrations at start: one node migrates, the others wait (db/client.ts). */
  migrations: 4_201_001,
  /** Test databases' template, made once per set of migrations (testing/databases.ts). */
  testTemplate: 4_201_002,
  /** Jobs (lib/jobs.ts): one node runs each, each minute. */
  accountDeletionJob: 4_201_101,
  /** Deletes the sessions whose last token has expired (lib/sessions.ts). */
  sessionExpiryJob: 4_201_110,
  storyExpiryJob: 4_201_301,
  linkPreviewJob: 4_201_302,
  orphanFileJob: 4_201_303,
  pollClosingJob: 4_201_304,
  eventReminderJob: 4_201_305,
} as const
