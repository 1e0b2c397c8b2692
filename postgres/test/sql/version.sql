-- The installed extension's version is the library's.
SELECT extversion = wirejson_version() AS version_matches FROM pg_extension WHERE extname = 'wirejson';
