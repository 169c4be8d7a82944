-- gold_audit.sql: how sound is a gold directory under the official rules?
--
--   sqlite3 :memory: -cmd '.load build/spidereval' \
--     -cmd ".parameter set :gold '../shared/spider2/snow/gold'" < sql/gold_audit.sql
--
-- Optional :flavor. Prints: the variant counts; every gold variant that
-- does not pass as a prediction of its own instance (official verdict,
-- with the reason); the instances whose condition_cols raise on some
-- variant (index beyond its columns, a nested list shorter than the
-- variants, a value iloc rejects): the first such variant ends the
-- instance with 0, so it never scores when that is the first variant, and
-- later variants are never reached; instances with no gold file; and
-- header-only gold variants.
.bail on
SELECT spidereval_error('gold_audit.sql: missing parameter :gold (the gold directory): -cmd ".parameter set :gold ''...''"') WHERE :gold IS NULL;
.mode list
.headers off
SELECT 'Gold variants per instance (instances in eval)';
.mode box
.headers on
SELECT variants, count(*) AS instances
FROM gold_instances(:gold) WHERE in_eval GROUP BY variants ORDER BY variants;

DROP TABLE IF EXISTS temp.audit_own;
-- (each variant's bytes: spider_verdict refuses a gold file given by its
-- path as a prediction, docs/security.md)
CREATE TEMP TABLE audit_own AS
SELECT v.instance_id, v.variant,
       spider_verdict(readfile(v.path), :gold, v.instance_id, coalesce(:flavor, 'snow')) ->> 'error_info' AS own_verdict
FROM gold_variants(:gold, coalesce(:flavor, 'snow')) v
JOIN gold_instances(:gold) g USING (instance_id)
WHERE g.in_eval
  AND spider_verdict(readfile(v.path), :gold, v.instance_id, coalesce(:flavor, 'snow')) ->> 'score' = 0
ORDER BY v.instance_id, v.variant;

DROP TABLE IF EXISTS temp.audit_raise;
CREATE TEMP TABLE audit_raise AS
WITH first_raise AS (
  SELECT instance_id, min(variant_index) AS k FROM gold_variants(:gold, coalesce(:flavor, 'snow'))
  WHERE columns_error IS NOT NULL GROUP BY instance_id
)
SELECT g.instance_id,
       CASE WHEN g.variants = 0 THEN 'never scores: no gold file'
            WHEN f.k = 0 THEN 'never scores: ' || v.columns_error
            ELSE printf('a prediction that fails variants 1..%d scores 0 at variant %d (%s): %s',
                        f.k, f.k + 1, v.variant, v.columns_error) END AS finding
FROM gold_instances(:gold) g
LEFT JOIN first_raise f USING (instance_id)
LEFT JOIN gold_variants(:gold, coalesce(:flavor, 'snow')) v
  ON v.instance_id = g.instance_id AND v.variant_index = f.k
WHERE g.in_eval AND (g.variants = 0 OR f.k IS NOT NULL)
ORDER BY g.instance_id;

-- header-only gold variants: an empty prediction file matches them, but a
-- SQL submission executed officially on Snowflake or BigQuery cannot ("No
-- data found"; lite's SQLite path compares the empty result and can)
DROP TABLE IF EXISTS temp.audit_header_only;
CREATE TEMP TABLE audit_header_only AS
SELECT v.instance_id, v.variant, count(*) AS columns
FROM gold_variants(:gold, coalesce(:flavor, 'snow')) v, result_columns(v.path) c
WHERE c.rows = 0 GROUP BY v.instance_id, v.variant ORDER BY 1, 2;

.mode list
.headers off
SELECT '';
SELECT printf('Gold variants that fail as a prediction of their own instance (official verdict): %d', count(*)) FROM audit_own;
.mode box --wrap 72 --wordwrap on
.headers on
SELECT * FROM audit_own ORDER BY instance_id, variant;
.mode list
.headers off
SELECT '';
SELECT printf('Instances that never score, or score 0 early (no gold file, or condition_cols that raise): %d', count(*)) FROM audit_raise;
.mode box --wrap 72 --wordwrap on
.headers on
SELECT * FROM audit_raise ORDER BY instance_id;
.mode list
.headers off
SELECT '';
SELECT printf('Header-only gold variants (a SQL submission run on Snowflake or BigQuery cannot match them: No data found): %d', count(*)) FROM audit_header_only;
.mode box
.headers on
SELECT * FROM audit_header_only ORDER BY 1, 2;
.mode list
.headers off
SELECT '';
SELECT CASE WHEN :cli IS NOT NULL
  THEN 'Next: spidereval report RUN ' || :cli || ' scores a submission against this gold; spidereval diff RUN ' || :cli || ' shows which of its verdicts the corrections flip.'
  ELSE 'Next: sql/report.sql scores a submission against this gold; sql/verdict_diff.sql shows which of its verdicts the corrections flip.' END;
