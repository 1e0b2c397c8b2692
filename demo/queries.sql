-- SPDX-License-Identifier: MIT
-- demo/queries.sql: the questions the demo asks of the log, for the sqlite3
-- shell (run by demo/run.sh after demo/schema.sql).  Each section says what
-- it shows; the README's conversations section explains the same queries.
.mode box --wrap 0
.headers on

.print
.print '== 1. The log =============================================================='
.print 'Chat-completions requests as clients logged them.  Clients spell JSON their'
.print 'own way: member order, whitespace, escapes.  wirejson_error(body) says which'
.print 'bodies are not JSON at all (kept in a STORED generated column, body_error).'
SELECT count(*) AS requests,
       count(*) FILTER (WHERE body_error IS NULL) AS valid_bodies,
       count(DISTINCT body) AS distinct_texts,
       (SELECT count(DISTINCT data_digest(body)) FROM requests
         WHERE body_error IS NULL) AS distinct_values,
       (SELECT count(*) FROM messages) AS messages
FROM requests;

SELECT id, client, body_error AS why_rejected
FROM requests
WHERE body_error IS NOT NULL
ORDER BY id;

.print
.print '== 2. Retries: the same request, spelled differently ======================'
.print 'No two logged texts are equal, yet some requests were sent twice.'
.print 'data_digest(body) is SHA-256 of the RFC 8785 canonical JSON: two texts get'
.print 'the same digest exactly when they hold the same JSON value.  GROUP BY it to'
.print 'deduplicate, keeping the first id of each group.'
SELECT count(*) AS distinct_requests,
       sum(copies) AS logged,
       sum(copies - 1) AS retries_dropped
FROM (SELECT min(id) AS id, count(*) AS copies
      FROM requests
      WHERE body_error IS NULL
      GROUP BY data_digest(body));

SELECT min(id) AS kept_id,
       group_concat(id, ' ') AS all_ids,
       group_concat(client, ' ') AS clients,
       count(DISTINCT body) AS spellings,
       substr(data_digest(body), 1, 16) AS data_digest
FROM requests
WHERE body_error IS NULL
GROUP BY data_digest(body)
HAVING count(*) > 1
ORDER BY count(DISTINCT client) DESC, kept_id
LIMIT 8;

.print
.print 'Looking a body up by value: the expression index requests_by_digest'
.print '(ON requests(data_digest(body))) answers it, as the plan shows:'
EXPLAIN QUERY PLAN
SELECT id FROM requests
WHERE body_error IS NULL
  AND data_digest(body) = data_digest('{"model":"x","messages":[]}');

.print 'A request that was retried with other whitespace and member order; both'
.print 'copies found through the index (\n: a newline in the logged text):'
WITH wanted AS (
  SELECT data_digest(body) AS digest FROM requests
  WHERE body_error IS NULL
  GROUP BY data_digest(body)
  HAVING max(instr(body, char(10))) > 0 AND min(instr(body, char(10))) = 0
  ORDER BY min(id) LIMIT 1)
SELECT id, client, length(body) AS characters,
       substr(replace(body, char(10), '\n'), 1, 56) AS body_starts
FROM requests
WHERE body_error IS NULL
  AND data_digest(body) = (SELECT digest FROM wanted)
ORDER BY id;

.print
.print '== 3. A conversation, message by message ==================================='
.print 'messages_digest_agg(message) OVER (ORDER BY position) is the digest of the'
.print 'conversation up to each message: its prefix digest.  The last one equals'
.print 'messages_digest of the whole messages array.'
WITH example AS (           -- a conversation of about eight messages
  SELECT request_id FROM messages
  GROUP BY request_id ORDER BY abs(count(*) - 8), request_id LIMIT 1)
SELECT position,
       message ->> 'role' AS role,
       substr(coalesce(message ->> 'content',
                       'calls ' || (message ->> '$.tool_calls[0].function.name')),
              1, 44) AS says,
       substr(messages_digest_agg(message) OVER (ORDER BY position), 1, 16)
         AS prefix_digest
FROM messages
WHERE request_id = (SELECT request_id FROM example)
ORDER BY position;

SELECT r.id AS request,
       substr(messages_digest(r.body -> '$.messages'), 1, 16) AS messages_digest
FROM requests AS r
WHERE r.id = (SELECT request_id FROM messages
              GROUP BY request_id ORDER BY abs(count(*) - 8), request_id LIMIT 1);

.print
.print '== 4. Which request continues which ======================================='
.print 'Request B continues request A when the digest of the first n messages of B'
.print 'equals messages_digest of A (n = the number of messages in A).  Message'
.print 'digests ignore null members and "extra" (reasoning, usage), so a session a'
.print 'second client picked up still chains, where comparing text would not.'
CREATE TEMP TABLE continuations AS
WITH wholes AS MATERIALIZED (   -- each conversation's length and digest
  SELECT id, n_messages AS n, digest FROM conversations
  WHERE id IN first_requests
),
prefixes AS MATERIALIZED (      -- the digest of every prefix of each
  SELECT request_id, position + 1 AS n,
         messages_digest_agg(message)
           OVER (PARTITION BY request_id ORDER BY position) AS digest
  FROM messages
  WHERE request_id IN first_requests
),
continues AS (                  -- B's first n messages are all of A's
  SELECT b.request_id AS later, a.id AS earlier, a.n
  FROM prefixes AS b
  JOIN wholes AS a ON a.digest = b.digest AND a.n = b.n
  WHERE b.n < (SELECT n FROM wholes WHERE id = b.request_id)
)
SELECT later, earlier, n        -- the longest conversation B continues
FROM (SELECT *, row_number() OVER (PARTITION BY later ORDER BY n DESC, earlier)
                  AS rank
      FROM continues)
WHERE rank = 1;

SELECT count(*) AS continuations,
       count(DISTINCT c.earlier) AS continued,
       (SELECT count(*) FROM (SELECT earlier FROM continuations
                              GROUP BY earlier HAVING count(*) > 1)) AS forks,
       count(*) FILTER (WHERE e.client <> l.client) AS across_clients
FROM continuations AS c
JOIN requests AS e ON e.id = c.earlier
JOIN requests AS l ON l.id = c.later;

.print 'Continuations that comparing the (minified) messages text would miss:'
SELECT c.later, c.earlier, c.n AS shared_messages,
       e.client || ' > ' || l.client AS clients
FROM continuations AS c
JOIN requests AS e ON e.id = c.earlier
JOIN requests AS l ON l.id = c.later
WHERE substr(l.body -> '$.messages', 1, length(e.body -> '$.messages') - 1)
   <> substr(e.body -> '$.messages', 1, length(e.body -> '$.messages') - 1)
ORDER BY c.later;

.print 'The longest chains (each arrow: the next request of the same conversation):'
WITH RECURSIVE chain (head, last, path, length) AS (
  SELECT f.id, f.id, f.id, 1
  FROM first_requests AS f
  WHERE f.id NOT IN (SELECT later FROM continuations)
  UNION ALL
  SELECT chain.head, c.later, chain.path || ' > ' || c.later, chain.length + 1
  FROM chain JOIN continuations AS c ON c.earlier = chain.last
)
SELECT length AS requests, path AS chain
FROM chain
WHERE last NOT IN (SELECT earlier FROM continuations)
ORDER BY length DESC, head, path
LIMIT 8;

.print
.print '== 5. The same tool call, asked again ====================================='
.print "canonical_arguments(arguments) is the canonical JSON of a tool call's"
.print 'arguments (or the text itself when a model wrote broken JSON), so calls that'
.print 'differ only in spelling group together: what a tool-result cache could reuse.'
SELECT tool || '(' || arguments || ')' AS tool_call, calls, spellings,
       conversations
FROM (SELECT call.value ->> '$.function.name' AS tool,
             canonical_arguments(call.value ->> '$.function.arguments')
               AS arguments,
             count(DISTINCT call.value ->> '$.id') AS calls,
             count(DISTINCT call.value ->> '$.function.arguments') AS spellings,
             count(DISTINCT message_digest(r.body -> '$.messages[0]'))
               AS conversations
      FROM requests AS r,
           json_each(r.body, '$.messages') AS m,
           json_each(m.value, '$.tool_calls') AS call
      WHERE r.body_error IS NULL
      GROUP BY tool, arguments
      HAVING calls > 1)
ORDER BY calls DESC, tool, arguments
LIMIT 10;

.print
.print '== 6. What the model is sent =============================================='
.print 'wire_json renders a body compactly and deterministically, and writes a JSON'
.print "Schema's properties in the order its \"required\" lists them, which is the"
.print 'order a grammar-constrained model fills them in: evidence before verdict.'
WITH logged AS (
  SELECT body -> '$.response_format.json_schema.schema' AS schema
  FROM requests
  WHERE body_error IS NULL AND body -> '$.response_format' IS NOT NULL
  ORDER BY id LIMIT 1)
SELECT 'as logged' AS rendering,
       (SELECT group_concat(key, ', ') FROM json_each(schema, '$.properties'))
         AS property_order
FROM logged
UNION ALL
SELECT 'canonical_json (identity)',
       (SELECT group_concat(key, ', ')
        FROM json_each(canonical_json(schema), '$.properties'))
FROM logged
UNION ALL
SELECT 'wire_json (sent)',
       (SELECT group_concat(key, ', ')
        FROM json_each(wire_json(schema), '$.properties'))
FROM logged;
.print
