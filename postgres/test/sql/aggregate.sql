-- messages_digest_agg: what messages_digest gives over the rows in order.
CREATE TABLE conv (pos int, m text);
INSERT INTO conv VALUES
  (1, '{"role":"system","content":"be brief"}'),
  (2, NULL),
  (3, '{"content":"hi","role":"user","extra":{"usage":1}}'),
  (4, '{"role":"assistant","content":"hello","name":null}'),
  (5, '{"role":"user","content":"bye"}');

-- The whole conversation, in the order of the call's ORDER BY; NULL skipped.
SELECT messages_digest_agg(m ORDER BY pos) =
       messages_digest('[{"role":"system","content":"be brief"},{"content":"hi","role":"user"},{"role":"assistant","content":"hello"},{"role":"user","content":"bye"}]') AS whole,
       messages_digest_agg(m ORDER BY pos DESC) <> messages_digest_agg(m ORDER BY pos) AS order_counts,
       messages_digest_agg(m::jsonb ORDER BY pos) = messages_digest_agg(m::json ORDER BY pos) AS jsonb_json
FROM conv;
-- No rows, only NULL rows: the digest of [] (SHA-256 of nothing).
SELECT messages_digest_agg(m) FROM conv WHERE false;
SELECT messages_digest_agg(m) FROM conv WHERE m IS NULL;
-- Prefix digests, a sliding frame and an empty frame, against messages_digest.
SELECT pos,
       messages_digest_agg(m) OVER w =
         messages_digest(coalesce((SELECT json_agg(c.m::json ORDER BY c.pos) FROM conv AS c
                                   WHERE c.pos <= conv.pos AND c.m IS NOT NULL), '[]')) AS prefix,
       messages_digest_agg(m) OVER (ORDER BY pos ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) =
         messages_digest(coalesce((SELECT json_agg(c.m::json ORDER BY c.pos) FROM conv AS c
                                   WHERE c.pos BETWEEN conv.pos - 1 AND conv.pos AND c.m IS NOT NULL), '[]')) AS sliding,
       messages_digest_agg(m) OVER (ORDER BY pos ROWS BETWEEN 5 PRECEDING AND 4 PRECEDING) AS before_four
FROM conv
WINDOW w AS (ORDER BY pos)
ORDER BY pos;
DROP TABLE conv;
