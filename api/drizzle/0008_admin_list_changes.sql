-- The admin lists are kept in memory by every API process (features/admin/list-cache.ts). Any
-- write to what they read, whichever code made it, tells every process which table changed.
-- Statement level: one notification per statement, and PostgreSQL folds identical ones within a
-- transaction into one. An UPDATE notifies only when it sets a column a list reads (its row JSON,
-- search, filter, order or counts in queries.ts), so the sync stamps (bubles.changed_version,
-- posts.version on every reaction…) leave the kept lists alone: a list that starts reading another
-- column needs it added here, in a new migration.
CREATE OR REPLACE FUNCTION "buble_admin_list_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('buble_admin', TG_TABLE_NAME);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "users_admin_list_changed" AFTER INSERT OR UPDATE OF "id", "name", "email", "email_verified", "role", "status", "bio", "avatar_url", "created_at" OR DELETE OR TRUNCATE ON "users" FOR EACH STATEMENT EXECUTE FUNCTION "buble_admin_list_changed"();--> statement-breakpoint
CREATE TRIGGER "memberships_admin_list_changed" AFTER INSERT OR UPDATE OF "buble_id", "user_id" OR DELETE OR TRUNCATE ON "memberships" FOR EACH STATEMENT EXECUTE FUNCTION "buble_admin_list_changed"();--> statement-breakpoint
CREATE TRIGGER "bubles_admin_list_changed" AFTER INSERT OR UPDATE OF "id", "name", "slug", "owner_id", "created_at" OR DELETE OR TRUNCATE ON "bubles" FOR EACH STATEMENT EXECUTE FUNCTION "buble_admin_list_changed"();--> statement-breakpoint
CREATE TRIGGER "posts_admin_list_changed" AFTER INSERT OR UPDATE OF "id", "buble_id", "author_id", "content", "image_url", "link_url", "is_edited", "comments_count", "created_at" OR DELETE OR TRUNCATE ON "posts" FOR EACH STATEMENT EXECUTE FUNCTION "buble_admin_list_changed"();--> statement-breakpoint
CREATE TRIGGER "events_admin_list_changed" AFTER INSERT OR UPDATE OF "id", "buble_id", "creator_id", "title", "description", "location", "event_time", "external_url", "created_at" OR DELETE OR TRUNCATE ON "events" FOR EACH STATEMENT EXECUTE FUNCTION "buble_admin_list_changed"();--> statement-breakpoint
CREATE TRIGGER "event_rsvps_admin_list_changed" AFTER INSERT OR UPDATE OF "event_id", "status" OR DELETE OR TRUNCATE ON "event_rsvps" FOR EACH STATEMENT EXECUTE FUNCTION "buble_admin_list_changed"();--> statement-breakpoint
CREATE TRIGGER "polls_admin_list_changed" AFTER INSERT OR UPDATE OF "id", "buble_id", "creator_id", "question", "total_votes", "created_at" OR DELETE OR TRUNCATE ON "polls" FOR EACH STATEMENT EXECUTE FUNCTION "buble_admin_list_changed"();--> statement-breakpoint
CREATE TRIGGER "poll_options_admin_list_changed" AFTER INSERT OR UPDATE OF "id", "poll_id", "option_text", "position", "votes_count" OR DELETE OR TRUNCATE ON "poll_options" FOR EACH STATEMENT EXECUTE FUNCTION "buble_admin_list_changed"();--> statement-breakpoint
CREATE TRIGGER "invites_admin_list_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "invites" FOR EACH STATEMENT EXECUTE FUNCTION "buble_admin_list_changed"();--> statement-breakpoint
CREATE TRIGGER "admin_audit_admin_list_changed" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "admin_audit" FOR EACH STATEMENT EXECUTE FUNCTION "buble_admin_list_changed"();
