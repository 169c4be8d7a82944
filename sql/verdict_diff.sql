-- verdict_diff.sql: where is the official verdict wrong? Each instance is
-- judged officially and with every correction on, and each flip is listed
-- with the corrections that flip it on their own:
--   keepnan  NULL is not 0 (NaN equals only NaN)
--   strict   rows must pair up as whole tuples
--   numsort  ignore_order sorts numbers by value, not by their text
--   pad      Spider2-E: short nested condition_cols lists padded with []
--   skipbad  a variant whose condition_cols raise is skipped, not fatal
-- Then the totals under both, with explicit denominators.
--
--   sqlite3 :memory: -cmd '.load build/spidereval' \
--     -cmd ".parameter set :submission 'path/to/submission'" \
--     -cmd ".parameter set :gold 'path/to/gold'" < sql/verdict_diff.sql
--
-- Optional :flavor (snow, lite, dbt).
.bail on
SELECT spidereval_error(p) FROM (SELECT spidereval_input_problem(
  'verdict_diff.sql', :submission, :gold) AS p) WHERE p IS NOT NULL;
DROP TABLE IF EXISTS temp.verdict_diff;
CREATE TEMP TABLE verdict_diff AS
WITH f(f) AS (SELECT coalesce(:flavor, 'snow')),
s AS MATERIALIZED (
  SELECT instance_id, path FROM submission_files(:submission)
  WHERE instance_id IN (SELECT instance_id FROM gold_instances(:gold) WHERE in_eval)
),
o AS MATERIALIZED (SELECT s.instance_id, spider_verdict(path, :gold, s.instance_id, f.f) AS v FROM s, f)
SELECT s.instance_id,
       o.v ->> 'score' AS official,
       spider_verdict(path, :gold, s.instance_id, f.f || ' corrected') ->> 'score' AS corrected,
       spider_verdict(path, :gold, s.instance_id, f.f || ' keepnan') ->> 'score' AS keepnan,
       spider_verdict(path, :gold, s.instance_id, f.f || ' strict') ->> 'score' AS strict,
       spider_verdict(path, :gold, s.instance_id, f.f || ' numsort') ->> 'score' AS numsort,
       spider_verdict(path, :gold, s.instance_id, f.f || ' pad') ->> 'score' AS pad,
       spider_verdict(path, :gold, s.instance_id, f.f || ' skipbad') ->> 'score' AS skipbad,
       o.v ->> 'error_info' AS official_reason
FROM s JOIN o USING (instance_id), f;

.mode list
.headers off
SELECT printf('Instances whose verdict flips under the corrections (official vs all corrections on): %d', count(*))
FROM verdict_diff WHERE official <> corrected;
.mode box --wrap 72 --wordwrap on
.headers on
SELECT instance_id, official, corrected,
       coalesce(nullif(trim(
         CASE WHEN keepnan <> official THEN 'keepnan ' ELSE '' END ||
         CASE WHEN strict <> official THEN 'strict ' ELSE '' END ||
         CASE WHEN numsort <> official THEN 'numsort ' ELSE '' END ||
         CASE WHEN pad <> official THEN 'pad ' ELSE '' END ||
         CASE WHEN skipbad <> official THEN 'skipbad' ELSE '' END), ''),
         'combination') AS flipped_by,
       substr(official_reason, 1, 60) AS official_reason
FROM verdict_diff WHERE official <> corrected ORDER BY instance_id;

.mode list
.headers off
SELECT '';
SELECT 'Totals, official and corrected (scoreable: a gold file and condition_cols that do not raise on the first variant)';
.mode box
.headers on
WITH first_raise AS (
  SELECT instance_id, min(variant_index) AS k
  FROM gold_variants(:gold, coalesce(:flavor, 'snow'))
  WHERE columns_error IS NOT NULL GROUP BY instance_id
), g AS (
  SELECT count(*) AS all_gold,
         sum(variants > 0 AND coalesce((SELECT k FROM first_raise f
                                        WHERE f.instance_id = gi.instance_id), 1) > 0) AS scoreable
  FROM gold_instances(:gold) gi WHERE in_eval
)
SELECT 'official' AS verdict, sum(official) AS correct, count(*) AS evaluated,
       (SELECT scoreable FROM g) AS scoreable, (SELECT all_gold FROM g) AS all_gold,
       printf('%.4f', 1.0 * sum(official) / count(*)) AS over_evaluated,
       printf('%.4f', 1.0 * sum(official) / (SELECT all_gold FROM g)) AS over_all
FROM verdict_diff
UNION ALL
SELECT 'corrected', sum(corrected), count(*), (SELECT scoreable FROM g),
       (SELECT all_gold FROM g),
       printf('%.4f', 1.0 * sum(corrected) / count(*)),
       printf('%.4f', 1.0 * sum(corrected) / (SELECT all_gold FROM g))
FROM verdict_diff;
.mode list
.headers off
SELECT '';
SELECT CASE WHEN :cli IS NOT NULL
  THEN 'Next: spidereval report ' || :cli || ' --options ''<correction>'' scores with one correction on; docs/match_funcs.md describes each.'
  ELSE 'Next: :options ''<correction>'' in sql/report.sql scores with one correction on; docs/match_funcs.md describes each.' END;
