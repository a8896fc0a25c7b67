CREATE SEQUENCE "public"."sync_version" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1;--> statement-breakpoint
CREATE TABLE "applied_mutations" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"client_id" text NOT NULL,
	"name" text NOT NULL,
	"result" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bubles" (
	"id" uuid PRIMARY KEY NOT NULL,
	"slug" text NOT NULL,
	"name" text NOT NULL,
	"owner_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"version" bigint DEFAULT nextval('sync_version') NOT NULL,
	"changed_version" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "entity_ids" (
	"id" uuid PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"user_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invites" (
	"id" uuid PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"buble_id" uuid NOT NULL,
	"created_by_id" uuid,
	"email" text,
	"used_by_id" uuid,
	"used_at" timestamp with time zone,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "memberships" (
	"buble_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"role" text NOT NULL,
	"permissions" text[] NOT NULL,
	"joined_at" timestamp with time zone DEFAULT now() NOT NULL,
	"joined_version" bigint NOT NULL,
	"version" bigint DEFAULT nextval('sync_version') NOT NULL,
	CONSTRAINT "memberships_buble_id_user_id_pk" PRIMARY KEY("buble_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "sync_meta" (
	"key" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sync_tombstones" (
	"version" bigint PRIMARY KEY DEFAULT nextval('sync_version') NOT NULL,
	"entity" text NOT NULL,
	"entity_id" text NOT NULL,
	"buble_id" uuid,
	"user_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "applied_mutations" ADD CONSTRAINT "applied_mutations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bubles" ADD CONSTRAINT "bubles_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invites" ADD CONSTRAINT "invites_buble_id_bubles_id_fk" FOREIGN KEY ("buble_id") REFERENCES "public"."bubles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invites" ADD CONSTRAINT "invites_created_by_id_users_id_fk" FOREIGN KEY ("created_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invites" ADD CONSTRAINT "invites_used_by_id_users_id_fk" FOREIGN KEY ("used_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_buble_id_bubles_id_fk" FOREIGN KEY ("buble_id") REFERENCES "public"."bubles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "applied_mutations_created_idx" ON "applied_mutations" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "bubles_slug_key" ON "bubles" USING btree ("slug");--> statement-breakpoint
CREATE INDEX "bubles_owner_idx" ON "bubles" USING btree ("owner_id");--> statement-breakpoint
CREATE UNIQUE INDEX "invites_code_key" ON "invites" USING btree ("code");--> statement-breakpoint
CREATE INDEX "invites_buble_idx" ON "invites" USING btree ("buble_id");--> statement-breakpoint
CREATE INDEX "memberships_user_idx" ON "memberships" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "memberships_buble_version_idx" ON "memberships" USING btree ("buble_id","version");--> statement-breakpoint
CREATE INDEX "sync_tombstones_buble_idx" ON "sync_tombstones" USING btree ("buble_id","version") WHERE "sync_tombstones"."user_id" is null;--> statement-breakpoint
CREATE INDEX "sync_tombstones_user_idx" ON "sync_tombstones" USING btree ("user_id","version") WHERE "sync_tombstones"."user_id" is not null;--> statement-breakpoint
CREATE INDEX "sync_tombstones_created_idx" ON "sync_tombstones" USING btree ("created_at");--> statement-breakpoint
-- A fresh database starts a new sync epoch: cursors from any other database answer reset.
INSERT INTO "sync_meta" ("key", "value") VALUES ('epoch', gen_random_uuid()::text);