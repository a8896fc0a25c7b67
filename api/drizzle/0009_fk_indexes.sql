-- Every foreign key gets an index led by its column: deleting an account or a buble cascades to (or
-- clears) these rows, and without one each delete scanned the whole table (chat messages, reactions,
-- applied mutations...). The data export reads comments, stories and chat messages by their author too.
CREATE INDEX "admin_audit_admin_idx" ON "admin_audit" USING btree ("admin_id") WHERE "admin_audit"."admin_id" is not null;--> statement-breakpoint
CREATE INDEX "applied_mutations_user_idx" ON "applied_mutations" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "chat_messages_sender_idx" ON "chat_messages" USING btree ("sender_id");--> statement-breakpoint
CREATE INDEX "chat_reactions_user_idx" ON "chat_reactions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "comments_author_idx" ON "comments" USING btree ("author_id");--> statement-breakpoint
CREATE INDEX "invites_created_by_idx" ON "invites" USING btree ("created_by_id");--> statement-breakpoint
CREATE INDEX "invites_used_by_idx" ON "invites" USING btree ("used_by_id") WHERE "invites"."used_by_id" is not null;--> statement-breakpoint
CREATE INDEX "post_reactions_user_idx" ON "post_reactions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "push_mutes_buble_idx" ON "push_mutes" USING btree ("buble_id");--> statement-breakpoint
CREATE INDEX "stories_author_idx" ON "stories" USING btree ("author_id");--> statement-breakpoint
CREATE INDEX "unread_marks_buble_idx" ON "unread_marks" USING btree ("buble_id");