CREATE TABLE "event_reminders_sent" (
	"event_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"sent_at" timestamp with time zone NOT NULL,
	CONSTRAINT "event_reminders_sent_event_id_user_id_starts_at_pk" PRIMARY KEY("event_id","user_id","starts_at")
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "event_reminder" text DEFAULT '1h' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "calendar_feed_serial" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "calendar_feed_hash" text;--> statement-breakpoint
ALTER TABLE "event_reminders_sent" ADD CONSTRAINT "event_reminders_sent_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_reminders_sent" ADD CONSTRAINT "event_reminders_sent_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "event_reminders_sent_user_idx" ON "event_reminders_sent" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "events_time_idx" ON "events" USING btree ("event_time");--> statement-breakpoint
CREATE UNIQUE INDEX "users_calendar_feed_hash_key" ON "users" USING btree ("calendar_feed_hash");