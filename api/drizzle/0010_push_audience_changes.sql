-- Web Push audiences (who in a buble gets a push: members with push on, their subscriptions, the
-- buble unmuted, its name and slug) are kept in memory by every API process
-- (features/push/audiences.ts, decision 54). Any write to what they read, whichever code made it,
-- tells every process. Statement level: one notification per statement, folded within a
-- transaction. UPDATEs notify only when they set a column the audience reads, so the stamps written
-- all the time (push_subscriptions.last_success_at on every delivery, bubles.changed_version on
-- every message) leave the kept audiences alone.
CREATE OR REPLACE FUNCTION "buble_push_audience_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('buble_push_audience', TG_TABLE_NAME);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "push_subscriptions_audience_changed" AFTER INSERT OR UPDATE OF "id", "user_id", "endpoint", "p256dh", "auth" OR DELETE OR TRUNCATE ON "push_subscriptions" FOR EACH STATEMENT EXECUTE FUNCTION "buble_push_audience_changed"();--> statement-breakpoint
CREATE TRIGGER "push_mutes_audience_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "push_mutes" FOR EACH STATEMENT EXECUTE FUNCTION "buble_push_audience_changed"();--> statement-breakpoint
CREATE TRIGGER "memberships_audience_changed" AFTER INSERT OR UPDATE OF "buble_id", "user_id" OR DELETE OR TRUNCATE ON "memberships" FOR EACH STATEMENT EXECUTE FUNCTION "buble_push_audience_changed"();--> statement-breakpoint
CREATE TRIGGER "users_audience_changed" AFTER UPDATE OF "id", "push_enabled", "status" OR DELETE OR TRUNCATE ON "users" FOR EACH STATEMENT EXECUTE FUNCTION "buble_push_audience_changed"();--> statement-breakpoint
CREATE TRIGGER "bubles_audience_changed" AFTER UPDATE OF "id", "name", "slug" OR DELETE OR TRUNCATE ON "bubles" FOR EACH STATEMENT EXECUTE FUNCTION "buble_push_audience_changed"();
