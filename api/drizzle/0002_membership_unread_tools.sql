CREATE TABLE "unread_marks" (
	"user_id" uuid NOT NULL,
	"buble_id" uuid NOT NULL,
	"content_type" text NOT NULL,
	"read_at" timestamp with time zone NOT NULL,
	"read_version" bigint NOT NULL,
	"version" bigint DEFAULT nextval('sync_version') NOT NULL,
	CONSTRAINT "unread_marks_user_id_buble_id_content_type_pk" PRIMARY KEY("user_id","buble_id","content_type")
);
--> statement-breakpoint
ALTER TABLE "bubles" ADD COLUMN "tools" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "unread_marks" ADD CONSTRAINT "unread_marks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "unread_marks" ADD CONSTRAINT "unread_marks_buble_id_bubles_id_fk" FOREIGN KEY ("buble_id") REFERENCES "public"."bubles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "unread_marks_user_version_idx" ON "unread_marks" USING btree ("user_id","version");--> statement-breakpoint
CREATE INDEX "invites_open_email_idx" ON "invites" USING btree ("email") WHERE "invites"."email" is not null and "invites"."used_by_id" is null;--> statement-breakpoint
CREATE INDEX "memberships_buble_joined_idx" ON "memberships" USING btree ("buble_id","joined_version");