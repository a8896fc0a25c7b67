-- Issue 23 §5: pin_posts joins the role defaults of admins (and the owner's list). Members whose stored
-- list is exactly their role's old default get it too, so they keep reading as "the role's
-- defaults" and not as custom permissions; custom lists stay as their granter left them.
UPDATE "memberships" SET "permissions" = array_append("permissions", 'pin_posts')
WHERE "role" = 'admin'
  AND "permissions" @> ARRAY['manage_buble','manage_members','invite_members','remove_members','change_roles','manage_events','manage_polls','create_events','create_polls','moderate_content','delete_others_content']::text[]
  AND "permissions" <@ ARRAY['manage_buble','manage_members','invite_members','remove_members','change_roles','manage_events','manage_polls','create_events','create_polls','moderate_content','delete_others_content']::text[];--> statement-breakpoint
UPDATE "memberships" SET "permissions" = array_append("permissions", 'pin_posts')
WHERE "role" = 'owner' AND NOT ('pin_posts' = ANY("permissions"));
