CREATE TABLE "mentions" (
	"user_id" uuid NOT NULL,
	"content_id" uuid NOT NULL,
	"buble_id" uuid NOT NULL,
	"content_type" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"version" bigint NOT NULL,
	CONSTRAINT "mentions_user_id_content_id_pk" PRIMARY KEY("user_id","content_id")
);
--> statement-breakpoint
ALTER TABLE "mentions" ADD CONSTRAINT "mentions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mentions" ADD CONSTRAINT "mentions_buble_id_bubles_id_fk" FOREIGN KEY ("buble_id") REFERENCES "public"."bubles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "mentions_user_tab_version_idx" ON "mentions" USING btree ("user_id","buble_id","content_type","version");--> statement-breakpoint
CREATE INDEX "mentions_buble_idx" ON "mentions" USING btree ("buble_id");