-- SPDX-License-Identifier: MIT
-- wirejson 0.2.0: the SQL functions of the PostgreSQL extension (docs/contract.md §13).
-- Every document argument is text, json (its exact text) or jsonb (walked
-- into JSON text by the extension); every function is IMMUTABLE STRICT
-- PARALLEL SAFE, so NULL in gives NULL out and they work in indexes,
-- generated columns and parallel plans.  Trailing names are VARIADIC text[];
-- a NULL among them is skipped.

\echo Use "CREATE EXTENSION wirejson" to load this file. \quit

-- The renderings (docs/contract.md §4, §5): text out, whatever the document's type.

CREATE FUNCTION wire_json(doc text, VARIADIC data_members text[] DEFAULT '{}') RETURNS text
    AS 'MODULE_PATHNAME', 'wirejson_wire_json'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION wire_json(doc json, VARIADIC data_members text[] DEFAULT '{}') RETURNS text
    AS 'MODULE_PATHNAME', 'wirejson_wire_json'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION wire_json(doc jsonb, VARIADIC data_members text[] DEFAULT '{}') RETURNS text
    AS 'MODULE_PATHNAME', 'wirejson_wire_json'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION wire_json_sorted(doc text) RETURNS text
    AS 'MODULE_PATHNAME', 'wirejson_wire_json_sorted'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION wire_json_sorted(doc json) RETURNS text
    AS 'MODULE_PATHNAME', 'wirejson_wire_json_sorted'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION wire_json_sorted(doc jsonb) RETURNS text
    AS 'MODULE_PATHNAME', 'wirejson_wire_json_sorted'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION canonical_json(doc text) RETURNS text
    AS 'MODULE_PATHNAME', 'wirejson_canonical_json'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION canonical_json(doc json) RETURNS text
    AS 'MODULE_PATHNAME', 'wirejson_canonical_json'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION canonical_json(doc jsonb) RETURNS text
    AS 'MODULE_PATHNAME', 'wirejson_canonical_json'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- The digests (docs/contract.md §6): 64 lowercase hex characters.

CREATE FUNCTION data_digest(doc text) RETURNS text
    AS 'MODULE_PATHNAME', 'wirejson_data_digest'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION data_digest(doc json) RETURNS text
    AS 'MODULE_PATHNAME', 'wirejson_data_digest'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION data_digest(doc jsonb) RETURNS text
    AS 'MODULE_PATHNAME', 'wirejson_data_digest'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION message_digest(message text, VARIADIC ignored_members text[] DEFAULT '{}') RETURNS text
    AS 'MODULE_PATHNAME', 'wirejson_message_digest'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION message_digest(message json, VARIADIC ignored_members text[] DEFAULT '{}') RETURNS text
    AS 'MODULE_PATHNAME', 'wirejson_message_digest'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION message_digest(message jsonb, VARIADIC ignored_members text[] DEFAULT '{}') RETURNS text
    AS 'MODULE_PATHNAME', 'wirejson_message_digest'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION messages_digest(messages text) RETURNS text
    AS 'MODULE_PATHNAME', 'wirejson_messages_digest'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION messages_digest(messages json) RETURNS text
    AS 'MODULE_PATHNAME', 'wirejson_messages_digest'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION messages_digest(messages jsonb) RETURNS text
    AS 'MODULE_PATHNAME', 'wirejson_messages_digest'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION canonical_arguments(arguments text) RETURNS text
    AS 'MODULE_PATHNAME', 'wirejson_canonical_arguments'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION canonical_arguments(arguments json) RETURNS text
    AS 'MODULE_PATHNAME', 'wirejson_canonical_arguments'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION canonical_arguments(arguments jsonb) RETURNS text
    AS 'MODULE_PATHNAME', 'wirejson_canonical_arguments'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- Raw request bodies (docs/contract.md §7).  with_top_level's value: text is a string to
-- quote, json/jsonb are spliced, numbers and booleans are JSON numbers and
-- literals.

CREATE FUNCTION with_top_level(body text, name text, value text) RETURNS text
    AS 'MODULE_PATHNAME', 'wirejson_with_top_level'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION with_top_level(body text, name text, value json) RETURNS text
    AS 'MODULE_PATHNAME', 'wirejson_with_top_level'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION with_top_level(body text, name text, value jsonb) RETURNS text
    AS 'MODULE_PATHNAME', 'wirejson_with_top_level'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION with_top_level(body text, name text, value numeric) RETURNS text
    AS 'MODULE_PATHNAME', 'wirejson_with_top_level'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION with_top_level(body text, name text, value double precision) RETURNS text
    AS 'MODULE_PATHNAME', 'wirejson_with_top_level'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION with_top_level(body text, name text, value bigint) RETURNS text
    AS 'MODULE_PATHNAME', 'wirejson_with_top_level'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION with_top_level(body text, name text, value boolean) RETURNS text
    AS 'MODULE_PATHNAME', 'wirejson_with_top_level'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION with_top_level(body json, name text, value text) RETURNS text
    AS 'MODULE_PATHNAME', 'wirejson_with_top_level'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION with_top_level(body json, name text, value json) RETURNS text
    AS 'MODULE_PATHNAME', 'wirejson_with_top_level'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION with_top_level(body json, name text, value jsonb) RETURNS text
    AS 'MODULE_PATHNAME', 'wirejson_with_top_level'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION with_top_level(body json, name text, value numeric) RETURNS text
    AS 'MODULE_PATHNAME', 'wirejson_with_top_level'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION with_top_level(body json, name text, value double precision) RETURNS text
    AS 'MODULE_PATHNAME', 'wirejson_with_top_level'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION with_top_level(body json, name text, value bigint) RETURNS text
    AS 'MODULE_PATHNAME', 'wirejson_with_top_level'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION with_top_level(body json, name text, value boolean) RETURNS text
    AS 'MODULE_PATHNAME', 'wirejson_with_top_level'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION with_top_level(body jsonb, name text, value text) RETURNS text
    AS 'MODULE_PATHNAME', 'wirejson_with_top_level'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION with_top_level(body jsonb, name text, value json) RETURNS text
    AS 'MODULE_PATHNAME', 'wirejson_with_top_level'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION with_top_level(body jsonb, name text, value jsonb) RETURNS text
    AS 'MODULE_PATHNAME', 'wirejson_with_top_level'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION with_top_level(body jsonb, name text, value numeric) RETURNS text
    AS 'MODULE_PATHNAME', 'wirejson_with_top_level'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION with_top_level(body jsonb, name text, value double precision) RETURNS text
    AS 'MODULE_PATHNAME', 'wirejson_with_top_level'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION with_top_level(body jsonb, name text, value bigint) RETURNS text
    AS 'MODULE_PATHNAME', 'wirejson_with_top_level'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION with_top_level(body jsonb, name text, value boolean) RETURNS text
    AS 'MODULE_PATHNAME', 'wirejson_with_top_level'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION tool_schemas(body text, VARIADIC path text[] DEFAULT '{}') RETURNS json
    AS 'MODULE_PATHNAME', 'wirejson_tool_schemas'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION tool_schemas(body json, VARIADIC path text[] DEFAULT '{}') RETURNS json
    AS 'MODULE_PATHNAME', 'wirejson_tool_schemas'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION tool_schemas(body jsonb, VARIADIC path text[] DEFAULT '{}') RETURNS json
    AS 'MODULE_PATHNAME', 'wirejson_tool_schemas'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION encode_with_schemas(body text, texts text) RETURNS text
    AS 'MODULE_PATHNAME', 'wirejson_encode_with_schemas'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION encode_with_schemas(body text, texts json) RETURNS text
    AS 'MODULE_PATHNAME', 'wirejson_encode_with_schemas'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION encode_with_schemas(body text, texts jsonb) RETURNS text
    AS 'MODULE_PATHNAME', 'wirejson_encode_with_schemas'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION encode_with_schemas(body json, texts text) RETURNS text
    AS 'MODULE_PATHNAME', 'wirejson_encode_with_schemas'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION encode_with_schemas(body json, texts json) RETURNS text
    AS 'MODULE_PATHNAME', 'wirejson_encode_with_schemas'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION encode_with_schemas(body json, texts jsonb) RETURNS text
    AS 'MODULE_PATHNAME', 'wirejson_encode_with_schemas'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION encode_with_schemas(body jsonb, texts text) RETURNS text
    AS 'MODULE_PATHNAME', 'wirejson_encode_with_schemas'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION encode_with_schemas(body jsonb, texts json) RETURNS text
    AS 'MODULE_PATHNAME', 'wirejson_encode_with_schemas'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION encode_with_schemas(body jsonb, texts jsonb) RETURNS text
    AS 'MODULE_PATHNAME', 'wirejson_encode_with_schemas'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- Input checks and the version.

CREATE FUNCTION wirejson_error(doc text) RETURNS text
    AS 'MODULE_PATHNAME', 'wirejson_error'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION wirejson_error(doc json) RETURNS text
    AS 'MODULE_PATHNAME', 'wirejson_error'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION wirejson_error(doc jsonb) RETURNS text
    AS 'MODULE_PATHNAME', 'wirejson_error'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION wirejson_error_position(doc text) RETURNS integer
    AS 'MODULE_PATHNAME', 'wirejson_error_position'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION wirejson_error_position(doc json) RETURNS integer
    AS 'MODULE_PATHNAME', 'wirejson_error_position'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION wirejson_error_position(doc jsonb) RETURNS integer
    AS 'MODULE_PATHNAME', 'wirejson_error_position'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
-- STABLE, as PostgreSQL's own version(): the library loaded may change
-- (an upgrade) while the catalog does not.
CREATE FUNCTION wirejson_version() RETURNS text
    AS 'MODULE_PATHNAME', 'wirejson_version'
    LANGUAGE C STABLE STRICT PARALLEL SAFE;

-- messages_digest_agg(m): messages_digest over rows, as an aggregate
-- (messages_digest_agg(m ORDER BY i)) and a window function over any frame.
-- The state is a core conversation in the aggregate's memory context; the
-- moving-aggregate functions let a sliding frame drop its oldest message
-- instead of starting again.  The support functions take internal and so
-- cannot be STRICT: they skip NULL rows themselves.

CREATE FUNCTION wirejson_agg_final(internal) RETURNS text
    AS 'MODULE_PATHNAME', 'wirejson_agg_final'
    LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION wirejson_agg_step(internal, text) RETURNS internal
    AS 'MODULE_PATHNAME', 'wirejson_agg_step'
    LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION wirejson_agg_inverse(internal, text) RETURNS internal
    AS 'MODULE_PATHNAME', 'wirejson_agg_inverse'
    LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE messages_digest_agg(message text) (
    SFUNC = wirejson_agg_step, STYPE = internal,
    FINALFUNC = wirejson_agg_final,
    MSFUNC = wirejson_agg_step, MSTYPE = internal,
    MINVFUNC = wirejson_agg_inverse, MFINALFUNC = wirejson_agg_final,
    PARALLEL = SAFE
);
CREATE FUNCTION wirejson_agg_step(internal, json) RETURNS internal
    AS 'MODULE_PATHNAME', 'wirejson_agg_step'
    LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION wirejson_agg_inverse(internal, json) RETURNS internal
    AS 'MODULE_PATHNAME', 'wirejson_agg_inverse'
    LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE messages_digest_agg(message json) (
    SFUNC = wirejson_agg_step, STYPE = internal,
    FINALFUNC = wirejson_agg_final,
    MSFUNC = wirejson_agg_step, MSTYPE = internal,
    MINVFUNC = wirejson_agg_inverse, MFINALFUNC = wirejson_agg_final,
    PARALLEL = SAFE
);
CREATE FUNCTION wirejson_agg_step(internal, jsonb) RETURNS internal
    AS 'MODULE_PATHNAME', 'wirejson_agg_step'
    LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE FUNCTION wirejson_agg_inverse(internal, jsonb) RETURNS internal
    AS 'MODULE_PATHNAME', 'wirejson_agg_inverse'
    LANGUAGE C IMMUTABLE PARALLEL SAFE;
CREATE AGGREGATE messages_digest_agg(message jsonb) (
    SFUNC = wirejson_agg_step, STYPE = internal,
    FINALFUNC = wirejson_agg_final,
    MSFUNC = wirejson_agg_step, MSTYPE = internal,
    MINVFUNC = wirejson_agg_inverse, MFINALFUNC = wirejson_agg_final,
    PARALLEL = SAFE
);

-- The functions belong to the extension's owner.  A trusted extension
-- created by a user who is not a superuser runs this script as the bootstrap
-- superuser, whose objects they would otherwise be; ALTER EXTENSION ... SET
-- SCHEMA (relocatable = true) must own every member it moves, so without
-- this the extension's own owner could not move it.
DO $$
DECLARE
    f regprocedure;
    owner name := (SELECT r.rolname FROM pg_extension AS e
                   JOIN pg_roles AS r ON r.oid = e.extowner
                   WHERE e.extname = 'wirejson');
BEGIN
    FOR f IN SELECT d.objid FROM pg_depend AS d
             JOIN pg_extension AS e ON e.oid = d.refobjid
             WHERE d.classid = 'pg_proc'::regclass AND d.deptype = 'e'
               AND d.refclassid = 'pg_extension'::regclass
               AND e.extname = 'wirejson'
    LOOP
        EXECUTE format('ALTER ROUTINE %s OWNER TO %I', f, owner);
    END LOOP;
END
$$;
