-- verdict_memo.sql: spider_verdict's verdicts kept for the scripts read
-- after, so that each verdict is judged once: read by sql/report.sql,
-- sql/errors.sql and sql/compare.sql (sql/report_html.sql reads all three
-- and sets :reuse_verdicts, so the later ones take the earlier verdicts;
-- without it the kept verdicts are dropped); their build/sql/ copies hold
-- it inlined. Makes temp.spider_verdict_memo(path, gold, instance_id,
-- options, v), temp.verdict_options(gold, options): :gold and the options
-- of :flavor, :options and :pandas that spider_verdict is given, and the
-- temp view spider_verdicts(path, instance_id, v): the kept verdicts judged
-- with those. Each script then judges the files it needs that are not there
-- yet (NOT EXISTS in spider_verdicts) and reads them from it.
CREATE TEMP TABLE IF NOT EXISTS spider_verdict_memo(
  path TEXT, gold TEXT, instance_id TEXT, options TEXT, v TEXT,
  PRIMARY KEY (path, gold, instance_id, options));
DELETE FROM temp.spider_verdict_memo WHERE :reuse_verdicts IS NULL;
DROP TABLE IF EXISTS temp.verdict_options;
CREATE TEMP TABLE verdict_options AS
SELECT :gold AS gold,
       coalesce(:flavor, 'snow') || ' ' || coalesce(:options, '') || coalesce(' pandas=' || :pandas, '') AS options;
DROP VIEW IF EXISTS temp.spider_verdicts;
CREATE TEMP VIEW spider_verdicts AS
SELECT m.path, m.instance_id, m.v
FROM temp.spider_verdict_memo AS m JOIN temp.verdict_options AS o
  ON m.gold = o.gold AND m.options = o.options;
