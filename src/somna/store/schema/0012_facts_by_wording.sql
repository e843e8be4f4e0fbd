-- A fact let go of (retired or expired) is found again by its wording when it is said
-- again (consolidate/restoring.py): the columns of facts_one_active, for every status.
CREATE INDEX facts_by_wording ON facts (profile_id, type, subject, text_hash);
