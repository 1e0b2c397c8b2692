-- SPDX-License-Identifier: MIT
-- wirejson 0.2.0 to 0.3.0 (ALTER EXTENSION wirejson UPDATE): the functions
-- new in 0.3.0, as sql/wirejson.sql creates them (OR REPLACE: a 0.2.0
-- built from the tree after they were added has them already); every other
-- function keeps its C symbol, which the 0.3.0 library still has.

\echo Use "ALTER EXTENSION wirejson UPDATE TO '0.3.0'" to load this file. \quit

CREATE OR REPLACE FUNCTION prompt_prefix_digests(body text, mode text DEFAULT 'sent') RETURNS text
    AS 'MODULE_PATHNAME', 'wirejson_prompt_prefix_digests'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION prompt_prefix_digests(body json, mode text DEFAULT 'sent') RETURNS text
    AS 'MODULE_PATHNAME', 'wirejson_prompt_prefix_digests'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION prompt_prefix_digests(body jsonb, mode text DEFAULT 'sent') RETURNS text
    AS 'MODULE_PATHNAME', 'wirejson_prompt_prefix_digests'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION common_prefix_length(a text, b text) RETURNS integer
    AS 'MODULE_PATHNAME', 'wirejson_common_prefix_length'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION common_prefix_length(a text, b json) RETURNS integer
    AS 'MODULE_PATHNAME', 'wirejson_common_prefix_length'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION common_prefix_length(a text, b jsonb) RETURNS integer
    AS 'MODULE_PATHNAME', 'wirejson_common_prefix_length'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION common_prefix_length(a json, b text) RETURNS integer
    AS 'MODULE_PATHNAME', 'wirejson_common_prefix_length'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION common_prefix_length(a json, b json) RETURNS integer
    AS 'MODULE_PATHNAME', 'wirejson_common_prefix_length'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION common_prefix_length(a json, b jsonb) RETURNS integer
    AS 'MODULE_PATHNAME', 'wirejson_common_prefix_length'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION common_prefix_length(a jsonb, b text) RETURNS integer
    AS 'MODULE_PATHNAME', 'wirejson_common_prefix_length'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION common_prefix_length(a jsonb, b json) RETURNS integer
    AS 'MODULE_PATHNAME', 'wirejson_common_prefix_length'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OR REPLACE FUNCTION common_prefix_length(a jsonb, b jsonb) RETURNS integer
    AS 'MODULE_PATHNAME', 'wirejson_common_prefix_length'
    LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

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
