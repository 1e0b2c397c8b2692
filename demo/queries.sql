-- demo/queries.sql: the questions the demo asks of the log, for the sqlite3
-- shell (run by demo/run.sh after demo/schema.sql).  Each section says what
-- it shows; docs/sql-conversations.md explains the same queries.
.mode box
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
.print '(ON requests(data_digest(body))) answers it, as the plan shows.'
.print 'Every copy of the first retried request, and how each one starts:'
EXPLAIN QUERY PLAN
SELECT id FROM requests
WHERE body_error IS NULL
  AND data_digest(body) = data_digest('{"model":"x","messages":[]}');

WITH wanted AS (
  SELECT data_digest(body) AS digest FROM requests
  WHERE body_error IS NULL
  GROUP BY data_digest(body) HAVING count(DISTINCT client) > 1
  ORDER BY min(id) LIMIT 1)
SELECT id, client,
       substr(replace(replace(body, char(10), ' '), '  ', ''), 1, 60) AS body_starts
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

SELECT c.id AS request, substr(c.digest, 1, 16) AS messages_digest
FROM conversations AS c
WHERE c.id = (SELECT request_id FROM messages
              GROUP BY request_id ORDER BY abs(count(*) - 8), request_id LIMIT 1);

.print
.print '== 4. Which request continues which ======================================='
.print 'Request B continues request A when the digest of the first n messages of B'
.print 'equals messages_digest of A (n = the number of messages in A).  Message'
.print 'digests ignore null members and "extra" (reasoning, usage), so a session a'
.print 'second client picked up still chains, where comparing text would not.'
CREATE TEMP TABLE parent AS
WITH firsts AS MATERIALIZED (   -- one request per distinct body: no retries
  SELECT min(id) AS id FROM requests
  WHERE body_error IS NULL
  GROUP BY data_digest(body)
),
wholes AS MATERIALIZED (        -- each conversation's length and digest
  SELECT id, n_messages AS n, digest FROM conversations
  WHERE id IN firsts
),
prefixes AS MATERIALIZED (      -- the digest of every prefix of each
  SELECT request_id, position + 1 AS n,
         messages_digest_agg(message)
           OVER (PARTITION BY request_id ORDER BY position) AS digest
  FROM messages
  WHERE request_id IN firsts
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
       count(DISTINCT earlier) AS continued,
       (SELECT count(*) FROM (SELECT earlier FROM parent GROUP BY earlier
                              HAVING count(*) > 1)) AS forks,
       count(*) FILTER (WHERE e.client <> l.client) AS across_clients
FROM parent
JOIN requests AS e ON e.id = parent.earlier
JOIN requests AS l ON l.id = parent.later;

.print 'Continuations that comparing the (minified) messages text would miss:'
SELECT parent.later, parent.earlier, parent.n AS shared_messages,
       e.client || ' > ' || l.client AS clients
FROM parent
JOIN requests AS e ON e.id = parent.earlier
JOIN requests AS l ON l.id = parent.later
WHERE substr(l.body -> '$.messages', 1, length(e.body -> '$.messages') - 1)
   <> substr(e.body -> '$.messages', 1, length(e.body -> '$.messages') - 1)
ORDER BY parent.later;

.print 'The longest chains (each arrow: the next request of the same conversation):'
WITH RECURSIVE chain (head, last, path, length) AS (
  SELECT f.id, f.id, f.id, 1
  FROM (SELECT min(id) AS id FROM requests WHERE body_error IS NULL
        GROUP BY data_digest(body)) AS f
  WHERE f.id NOT IN (SELECT later FROM parent)
  UNION ALL
  SELECT chain.head, parent.later, chain.path || ' > ' || parent.later,
         chain.length + 1
  FROM chain JOIN parent ON parent.earlier = chain.last
)
SELECT length AS requests, path AS chain
FROM chain
WHERE last NOT IN (SELECT earlier FROM parent)
ORDER BY length DESC, head, path
LIMIT 8;

.print
.print '== 5. The same tool call, asked again ====================================='
.print "canonical_arguments(arguments) is the canonical JSON of a tool call's"
.print 'arguments (or the text itself when a model wrote broken JSON), so calls that'
.print 'differ only in spelling group together: what a tool-result cache could reuse.'
SELECT call.value ->> '$.function.name' AS tool,
       canonical_arguments(call.value ->> '$.function.arguments') AS arguments,
       count(DISTINCT call.value ->> '$.id') AS calls,
       count(DISTINCT call.value ->> '$.function.arguments') AS spellings,
       count(DISTINCT message_digest(r.body -> '$.messages[0]')) AS conversations
FROM requests AS r,
     json_each(r.body, '$.messages') AS m,
     json_each(m.value, '$.tool_calls') AS call
WHERE r.body_error IS NULL
GROUP BY tool, arguments
HAVING calls > 1
ORDER BY calls DESC, tool, arguments
LIMIT 10;

.print
.print '== 6. What the model is sent =============================================='
.print 'wire_json renders a body compactly and deterministically, and writes a JSON'
.print "Schema's properties in the order its \"required\" lists them, which is the"
.print 'order a grammar-constrained model fills them in: evidence before verdict.'
SELECT wire_json(body -> '$.response_format.json_schema.schema') AS response_schema
FROM requests
WHERE body_error IS NULL AND body -> '$.response_format' IS NOT NULL
ORDER BY id
LIMIT 1;
.print
