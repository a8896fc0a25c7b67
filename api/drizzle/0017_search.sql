ALTER TABLE "chat_messages" ADD COLUMN "search_vector" "tsvector" GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, "content") || to_tsvector('english'::regconfig, "content")) STORED;--> statement-breakpoint
ALTER TABLE "comments" ADD COLUMN "search_vector" "tsvector" GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, "content") || to_tsvector('english'::regconfig, "content")) STORED;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "search_vector" "tsvector" GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, "title" || ' ' || coalesce("description", '') || ' ' || coalesce("location", '')) || to_tsvector('english'::regconfig, "title" || ' ' || coalesce("description", '') || ' ' || coalesce("location", ''))) STORED;--> statement-breakpoint
ALTER TABLE "poll_options" ADD COLUMN "search_vector" "tsvector" GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, "option_text") || to_tsvector('english'::regconfig, "option_text")) STORED;--> statement-breakpoint
ALTER TABLE "polls" ADD COLUMN "search_vector" "tsvector" GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, "question") || to_tsvector('english'::regconfig, "question")) STORED;--> statement-breakpoint
ALTER TABLE "posts" ADD COLUMN "search_vector" "tsvector" GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, "content") || to_tsvector('english'::regconfig, "content")) STORED;--> statement-breakpoint
CREATE INDEX "chat_messages_search_idx" ON "chat_messages" USING gin ("search_vector");--> statement-breakpoint
CREATE INDEX "comments_search_idx" ON "comments" USING gin ("search_vector");--> statement-breakpoint
CREATE INDEX "comments_buble_created_idx" ON "comments" USING btree ("buble_id","created_at","id");--> statement-breakpoint
CREATE INDEX "events_search_idx" ON "events" USING gin ("search_vector");--> statement-breakpoint
CREATE INDEX "poll_options_search_idx" ON "poll_options" USING gin ("search_vector");--> statement-breakpoint
CREATE INDEX "polls_search_idx" ON "polls" USING gin ("search_vector");--> statement-breakpoint
CREATE INDEX "posts_search_idx" ON "posts" USING gin ("search_vector");--> statement-breakpoint
CREATE INDEX "posts_buble_created_idx" ON "posts" USING btree ("buble_id","created_at","id");