-- Versions without a lock (decision 91). A synced row's version is its writing transaction's id times
-- 65536, plus a counter of the versions that transaction took here (kept in a transaction-local
-- setting, so a rolled-back savepoint gives its numbers back with its rows): 1 to 64511. The app
-- counts 64512 to 65534 itself, once it knows the transaction's id; 65535 is the buble stamp's. Versions never tie, and a pull
-- reads only up to the oldest transaction still in flight (pg_snapshot_xmin) times 65536: every
-- version below it has committed or never will, so a row that commits late is never skipped and
-- writers in different bubles never wait for one another. Every version this makes is above every
-- version the old sequence gave; the guard refuses to go on if a database ever had more.
CREATE OR REPLACE FUNCTION "buble_next_version"() RETURNS bigint LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  taken integer := coalesce(nullif(current_setting('buble.versions_taken', true), ''), '0')::integer + 1;
BEGIN
  IF taken > 64511 THEN
    RAISE EXCEPTION 'one transaction took more than 64511 sync versions in SQL';
  END IF;
  PERFORM set_config('buble.versions_taken', taken::text, true);
  RETURN pg_current_xact_id()::text::bigint * 65536 + taken;
END
$$;--> statement-breakpoint
DO $$
BEGIN
  IF (SELECT last_value FROM "sync_version") >= pg_current_xact_id()::text::bigint * 65536 THEN
    RAISE EXCEPTION 'sync_version is beyond the versions made from transaction ids';
  END IF;
END
$$;--> statement-breakpoint
ALTER TABLE "bubles" ALTER COLUMN "version" SET DEFAULT buble_next_version();--> statement-breakpoint
ALTER TABLE "chat_messages" ALTER COLUMN "version" SET DEFAULT buble_next_version();--> statement-breakpoint
ALTER TABLE "comments" ALTER COLUMN "version" SET DEFAULT buble_next_version();--> statement-breakpoint
ALTER TABLE "events" ALTER COLUMN "version" SET DEFAULT buble_next_version();--> statement-breakpoint
ALTER TABLE "memberships" ALTER COLUMN "version" SET DEFAULT buble_next_version();--> statement-breakpoint
ALTER TABLE "polls" ALTER COLUMN "version" SET DEFAULT buble_next_version();--> statement-breakpoint
ALTER TABLE "posts" ALTER COLUMN "version" SET DEFAULT buble_next_version();--> statement-breakpoint
ALTER TABLE "stories" ALTER COLUMN "version" SET DEFAULT buble_next_version();--> statement-breakpoint
ALTER TABLE "sync_tombstones" ALTER COLUMN "version" SET DEFAULT buble_next_version();--> statement-breakpoint
ALTER TABLE "unread_marks" ALTER COLUMN "version" SET DEFAULT buble_next_version();--> statement-breakpoint
DROP SEQUENCE "public"."sync_version";