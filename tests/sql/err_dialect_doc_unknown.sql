.load build/spidereval
CREATE VIRTUAL TABLE temp.doc USING dialect_doc(folder='x');
