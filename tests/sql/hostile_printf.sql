-- printf() and format() in the sandbox (fuzz_sandbox found this): SQLite
-- writes %c with a precision one character at a time, also past the
-- length limit, so one call ran 23 s under a 1 s bound; the sandbox gives
-- the NULL SQLite gives in the end, at once. Any other call is SQLite's
-- own printf.
.load build/spidereval
.mode list
SELECT value FROM query_result('build/samples/shop.sqlite', 'SELECT printf(''%.*c'', 1000000000, ''x'') IS NULL', 1);
SELECT value FROM query_result('build/samples/shop.sqlite', 'SELECT format(''%.2000000000c%d'', ''x'', 1) IS NULL', 1);
SELECT value FROM query_result('build/samples/shop.sqlite', 'SELECT printf(''%.*c%.*c'', 40000000, ''x'', 40000000, ''y'') IS NULL', 1);
SELECT value FROM query_result('build/samples/shop.sqlite', 'SELECT length(printf(''%.*c'', 1000, ''é''))', 1);
-- the same answers as SQLite's own printf
SELECT value = printf('%d %s %.2f %q %Q %w %x %5.3s %-8d| %,d %% %.*c|%*.*c|%lld %z', 1, 'a', 3.14159, 'it''s', NULL, 'q"', 255, 'abcdef', 42, 1234567, 3, 'y', -6, 2, 'z', 7, 'end')
FROM query_result('build/samples/shop.sqlite', 'SELECT printf(''%d %s %.2f %q %Q %w %x %5.3s %-8d| %,d %% %.*c|%*.*c|%lld %z'', 1, ''a'', 3.14159, ''it''''s'', NULL, ''q"'', 255, ''abcdef'', 42, 1234567, 3, ''y'', -6, 2, ''z'', 7, ''end'')', 1);
SELECT value FROM query_result('build/samples/shop.sqlite', 'SELECT printf() IS NULL, printf(NULL) IS NULL, printf(''%d'')', 1);
