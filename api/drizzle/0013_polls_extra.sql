-- Polls made before 0012 had one choice per member: their voters are their votes (docs/decisions/0098).
UPDATE "polls" SET "voters_count" = "total_votes" WHERE "voters_count" = 0 AND "total_votes" > 0;
