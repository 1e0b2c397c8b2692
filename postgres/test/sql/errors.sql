-- Errors: the SQLite message word for word, with the SQLSTATE of its kind.
CREATE FUNCTION pg_temp.err(q text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE q;
  RETURN 'no error';
EXCEPTION WHEN OTHERS THEN
  RETURN SQLSTATE || ' ' || SQLERRM;
END $$;

-- 22P02: not valid JSON (§3), in any argument.
SELECT pg_temp.err($$SELECT wire_json('{"a":1,}')$$);
SELECT pg_temp.err($$SELECT wire_json('{"a":1,"bcdefghi"2}')$$);
SELECT pg_temp.err($$SELECT data_digest('{"a":1,"\u0061":2}')$$);
SELECT pg_temp.err($$SELECT canonical_json('[1] x')$$);
SELECT pg_temp.err($$SELECT message_digest('')$$);
SELECT pg_temp.err($$SELECT wire_json(repeat('[', 1001) || repeat(']', 1001))$$);
SELECT pg_temp.err($$SELECT encode_with_schemas('{"tools":[{}]}', '[')$$);
SELECT pg_temp.err($$SELECT with_top_level('{"t":0}', 't', (repeat('[', 1001) || repeat(']', 1001))::json)$$);
-- 22023: a number beyond a double, where the canonical form needs one (valid
-- JSON that cannot be rendered, not malformed JSON).
SELECT pg_temp.err($$SELECT canonical_json('1e400')$$);
SELECT pg_temp.err($$SELECT data_digest('{"a":[1,-1e400]}'::jsonb)$$);
SELECT wire_json('1e400'), canonical_arguments('{"x": 1e400 }');
-- 22023: valid JSON of the wrong kind, a bad argument.
SELECT pg_temp.err($$SELECT message_digest('[1]')$$);
SELECT pg_temp.err($$SELECT message_digest('[1]'::jsonb)$$);
SELECT pg_temp.err($$SELECT messages_digest('{}')$$);
SELECT pg_temp.err($$SELECT messages_digest('[{}, 2]')$$);
SELECT pg_temp.err($$SELECT encode_with_schemas('{"tools":[{}]}', '[1]')$$);
SELECT pg_temp.err($$SELECT with_top_level('{"t":0}', 't', 'NaN'::float8)$$);
SELECT pg_temp.err($$SELECT with_top_level('{"t":0}', 't', 'Infinity'::numeric)$$);
SELECT pg_temp.err($$SELECT messages_digest_agg(m) FROM (VALUES ('{}'), ('"x"')) AS v(m)$$);
