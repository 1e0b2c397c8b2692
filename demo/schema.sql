-- SPDX-License-Identifier: MIT
-- demo/schema.sql: the demo database.  Run with the wirejson extension
-- loaded and a table raw_log(line TEXT) holding demo/sample.jsonl, one line
-- a row; fills requests (the log) and messages (each body's messages).
--
-- Everything here runs with trusted_schema=OFF: the wirejson functions are
-- innocuous, so a generated column, an index and views may use them.
-- (SQLite 3.40's own JSON functions are not, so the views do without.)
PRAGMA trusted_schema = OFF;

CREATE TABLE requests (
  id         INTEGER PRIMARY KEY,
  logged_at  TEXT NOT NULL,
  client     TEXT NOT NULL,
  body       TEXT NOT NULL,      -- the request exactly as the client sent it
  -- NULL when wirejson accepts the body, else the reason it does not.
  body_error TEXT GENERATED ALWAYS AS (wirejson_error(body)) STORED
);

-- A body's identity, whatever its member order, whitespace and escapes.
CREATE INDEX requests_by_digest ON requests (data_digest(body))
  WHERE body_error IS NULL;

-- One row per message of every valid body, in order.
CREATE TABLE messages (
  request_id INTEGER NOT NULL REFERENCES requests (id),
  position   INTEGER NOT NULL,   -- 0-based, as json_each numbers them
  message    TEXT NOT NULL,
  PRIMARY KEY (request_id, position)
) WITHOUT ROWID;

-- Each valid request's conversation: how many messages, and their digest
-- (a whole-partition window: every row of a request sees all its messages).
CREATE VIEW conversations AS
SELECT request_id AS id, n_messages, digest
FROM (SELECT request_id, position,
             count(*) OVER whole AS n_messages,
             messages_digest_agg(message) OVER whole AS digest
      FROM messages
      WINDOW whole AS (PARTITION BY request_id ORDER BY position
                       ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING))
WHERE position = 0;

-- The first request of each distinct body: the log without its retries.
CREATE VIEW first_requests AS
SELECT min(id) AS id
FROM requests
WHERE body_error IS NULL
GROUP BY data_digest(body);

INSERT INTO requests (id, logged_at, client, body)
SELECT line ->> 'id', line ->> 'logged_at', line ->> 'client', line ->> 'body'
FROM raw_log;

INSERT INTO messages (request_id, position, message)
SELECT r.id, m.key, m.value
FROM requests AS r, json_each(r.body, '$.messages') AS m
WHERE r.body_error IS NULL;

DROP TABLE raw_log;
