-- The functions on the contract's examples; text, json and jsonb documents.
-- Values here are the contract's and the README's (computed there with
-- sha256sum and by hand), or comparisons that must be true.

-- §4: properties in the order of required; wire_json_sorted sorts all.
SELECT wire_json('{"type":"object","properties":{"change":{"type":"string"},"confidence":{"type":"number"},"evidence":{"type":"string"},"notes":{"type":"string"}},"required":["evidence","change","confidence"]}');
SELECT wire_json_sorted('{"b":1,"a":{"properties":{"z":1,"y":2},"required":["z"]}}');
SELECT wire_json('{"b":1,"a":{"properties":{"z":1,"y":2},"required":["z"]}}'::jsonb);
-- Data members: VARIADIC names, a NULL name skipped, VARIADIC ARRAY.
SELECT wire_json('{"messages":[{"properties":{"y":1,"x":2},"required":["x"]}],"model":"m"}', 'messages');
SELECT wire_json('{"messages":[{"properties":{"y":1,"x":2},"required":["x"]}],"model":"m"}', NULL, 'messages');
SELECT wire_json('{"messages":[{"properties":{"y":1,"x":2},"required":["x"]}]}'::json, VARIADIC ARRAY['messages']);
-- Numbers: text and json keep the lexeme; jsonb holds numeric_out's digits.
SELECT wire_json('[1.0, 1E+2, 1e-7, -0.0, 100e-2]'::text) AS text,
       wire_json('[1.0, 1E+2, 1e-7, -0.0, 100e-2]'::json) AS json,
       wire_json('[1.0, 1E+2, 1e-7, -0.0, 100e-2]'::jsonb) AS jsonb;
-- A scalar document in jsonb is the scalar, not PostgreSQL's wrapper array.
SELECT wire_json('"x"'::jsonb) AS string, canonical_json('1E+2'::jsonb) AS number,
       wire_json('null'::jsonb) AS null, data_digest('true'::jsonb) = data_digest('true') AS same;
-- §5: canonical JSON; the same from jsonb.
SELECT canonical_json('{"b":2, "a":1.0, "c":[1e21, 0.000001, -0]}');
SELECT canonical_json('{"b":2, "a":1.0, "c":[1e21, 0.000001, -0]}'::jsonb);
-- §6: digests.
SELECT data_digest('{"b":2,"a":1.0}');
SELECT data_digest('{"b":2,"a":1.0}') = data_digest('{"a":1,"b":2}'::json) AS same_json,
       data_digest('{"b":2,"a":1.0}') = data_digest('{"a":1,"b":2}'::jsonb) AS same_jsonb;
SELECT message_digest('{"role":"user","content":"hi","extra":{"usage":3}}');
SELECT message_digest('{"role":"user","content":"hi","name":null,"extra":1}'::jsonb) = data_digest('{"content":"hi","role":"user"}') AS same;
SELECT message_digest('{"role":"user","content":"hi","id":"m1"}', 'id') = message_digest('{"content":"hi","role":"user"}') AS ignored;
SELECT messages_digest('[]'), messages_digest('[]'::jsonb) = messages_digest('[]') AS same;
-- A duplicate name: an error as text, the last one kept by jsonb.
SELECT wirejson_error('{"a":1,"a":2}'), wirejson_error_position('{"a":1,"a":2}');
SELECT wirejson_error('{"a":1,"a":2}'::jsonb) IS NULL AS valid, wire_json('{"a":1,"a":2}'::jsonb);
SELECT wirejson_error('[1]') IS NULL AS valid, wirejson_error_position('[1]') IS NULL AS no_position;
-- canonical_arguments: text as it is; a jsonb string's content.
SELECT canonical_arguments('{"b":2, "a":1}'), canonical_arguments('{"b":2,');
SELECT canonical_arguments('{"arguments":"{\"b\":2, \"a\":1}"}'::jsonb -> 'arguments'),
       canonical_arguments('{"b":2, "a":1}'::jsonb);
-- §7: with_top_level; text is quoted, json/jsonb spliced, numbers and booleans.
SELECT with_top_level('{"model": "gpt-4o", "n": {"model": 1}, "mod\u0065l": "x"}', 'model', 'local-llama');
SELECT with_top_level('{"model": "a"}', 'model', 'say "hi"') AS text,
       with_top_level('{"model": "a"}', 'model', '{"name": "x", "n": 2}'::json) AS json,
       with_top_level('{"model": "a"}', 'model', '{"name": "x", "n": 2}'::jsonb) AS jsonb;
SELECT with_top_level('{"t": 0}', 't', 0.50) AS numeric,
       with_top_level('{"t": 0}', 't', 0.1::float8 + 0.2::float8) AS float8,
       with_top_level('{"t": 0}', 't', 9007199254740993) AS bigint,
       with_top_level('{"t": 0}', 't', 7) AS integer,
       with_top_level('{"t": 0}', 't', true) AS boolean,
       with_top_level('{"t": 0}', 't', 'null'::json) AS null;
SELECT with_top_level('{"messages": []}', 'model', 'x') IS NULL AS no_member,
       with_top_level('{"model": "a",}', 'model', 'x') IS NULL AS not_json;
SELECT tool_schemas('{"tools": [{"name": "w", "input_schema": {"type": "object",  "properties": {}}}, {"name": "now"}]}', 'input_schema');
SELECT json_array_elements_text(tool_schemas('{"tools": [{"function": {"parameters": {"b" :1}}}]}', 'function', 'parameters')) AS schema;
SELECT encode_with_schemas('{"model":"m","tools":[{"function":{"parameters":{"a":1},"name":"f"},"type":"function"}]}',
                           '["{ \"a\" : 1 }"]');
SELECT encode_with_schemas('{"model":"m","tools":[{"function":{"parameters":{"a":1},"name":"f"},"type":"function"}]}'::jsonb,
                           tool_schemas('{"tools":[{"input_schema":{ "a" : 1 }}]}', 'input_schema'));
-- STRICT: NULL in, NULL out.
SELECT wire_json(NULL) IS NULL AS a, data_digest(NULL::jsonb) IS NULL AS b,
       with_top_level('{"m":1}', 'm', NULL::text) IS NULL AS c,
       wire_json('[]', VARIADIC NULL::text[]) IS NULL AS d;
SELECT wirejson_version() ~ '^[0-9]+\.[0-9]+\.[0-9]+$' AS version;
