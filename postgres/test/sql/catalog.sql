-- Every function the extension installs, with its arguments, result and
-- flags: IMMUTABLE STRICT PARALLEL SAFE, except the aggregate's support
-- functions, which take internal and so skip NULL rows themselves, and
-- wirejson_version(), STABLE as version() is.  The expected output is made
-- from the table of functions by tools/functions_gen.c, which echoes this
-- file: the query stays its only statement.
SELECT p.oid::regprocedure AS function, p.prorettype::regtype AS returns,
       p.provolatile AS vol, p.proisstrict AS strict, p.proparallel AS par,
       p.prokind AS kind
FROM pg_proc AS p
JOIN pg_depend AS d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
JOIN pg_extension AS e ON e.oid = d.refobjid AND e.extname = 'wirejson'
ORDER BY p.proname, p.oid::regprocedure::text;
