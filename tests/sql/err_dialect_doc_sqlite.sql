.load build/spidereval
CREATE VIRTUAL TABLE temp.doc USING dialect_doc(sqlite_doc='tests/fixtures');
