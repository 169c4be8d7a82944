-- report.sql: the human report of a submission's official verdicts.
--
--   sqlite3 :memory: -cmd '.load build/spidereval' \
--     -cmd ".parameter set :submission 'path/to/submission'" \
--     -cmd ".parameter set :gold 'path/to/gold'" < sql/report.sql
--
-- Same parameters as evaluate.sql (:submission, :gold, optional :flavor,
-- :options, :pandas, :instances, :progress), and optional:
--   :tasks       the task jsonl of the run (spider2-snow.jsonl or
--                spider2-lite.jsonl): each instance's question
--   :lite_tasks  spider2-lite.jsonl and
--   :lite_gold   spider2-lite's gold directory: an instance without a
--                difficulty of its own takes the difficulty of the
--                spider2-lite instance with the same question (its toks
--                or gold SQL); needs :tasks
--   :limit       how many failures and unsubmitted instances to list
--                (default 50, 0 for all); the title says "showing N of M"
--   :cli         set by the spidereval command (RUN --gold_dir G): the
--                hints name spidereval's commands and flags
-- Prints the totals (the official script reports both the score over
-- evaluated instances and over every instance of the eval jsonl, and, for
-- the snow flavour, the Spider2-E total), where the difficulties come from and how many
-- instances have none and why, the split by difficulty (Easy < 80 <=
-- Medium < 160 <= Hard whitespace tokens of the gold SQL, or toks from the
-- eval jsonl), the split by outcome, the failures, the instances of the
-- eval jsonl that were not submitted, and what to run next.
-- The per-instance verdicts stay in the temp table report_verdicts
-- (instance_id, difficulty, difficulty_source, score, error_info,
-- category, variant, question) and the unsubmitted instances in
-- report_missing (instance_id, difficulty) for ad-hoc queries.
.bail on
-- the inputs' checks, shared (ext/script_funcs.c): a missing parameter,
-- a folder without .csv files or with none named after a gold instance
SELECT spidereval_error(p) FROM (SELECT spidereval_input_problem(
  'report.sql', :submission, :gold) AS p) WHERE p IS NOT NULL;
-- a misspelt :flavor, :pandas or :instances stops the script (not the default)
SELECT spidereval_error(p) FROM (SELECT coalesce(
  spidereval_choice_problem('report.sql', ':flavor', :flavor, 'snow lite dbt'),
  spidereval_choice_problem('report.sql', ':pandas', :pandas, '1.5 2 3'),
  spidereval_choice_problem('report.sql', ':instances', :instances, 'all spider2e')) AS p)
WHERE p IS NOT NULL;
DROP TABLE IF EXISTS temp.spider2e_excluded;
CREATE TEMP TABLE spider2e_excluded AS
SELECT value ->> 'instance_id' AS instance_id, value ->> 'reason' AS reason
FROM json_each(spider2e_excluded());
DROP TABLE IF EXISTS temp.report_difficulty;
CREATE TEMP TABLE report_difficulty AS
WITH gold AS MATERIALIZED (
  SELECT instance_id, difficulty, toks, sql_tokens FROM gold_instances(:gold)
  WHERE (in_eval OR NOT EXISTS (SELECT 1 FROM gold_instances(:gold) WHERE in_eval))
    AND (coalesce(:instances, 'all') <> 'spider2e'
         OR instance_id NOT IN (SELECT instance_id FROM temp.spider2e_excluded))
), task AS MATERIALIZED (
  SELECT json ->> 'instance_id' AS instance_id,
         coalesce(json ->> 'instruction', json ->> 'question') AS question
  FROM jsonl_lines(:tasks) WHERE :tasks IS NOT NULL
), lite AS MATERIALIZED (
  SELECT json ->> 'instance_id' AS lite_id,
         coalesce(json ->> 'question', json ->> 'instruction') AS question
  FROM jsonl_lines(:lite_tasks)
  WHERE :lite_tasks IS NOT NULL AND :lite_gold IS NOT NULL AND :tasks IS NOT NULL
), lite_gold AS MATERIALIZED (
  SELECT instance_id AS lite_id, difficulty FROM gold_instances(:lite_gold)
  WHERE :lite_gold IS NOT NULL AND :lite_tasks IS NOT NULL AND :tasks IS NOT NULL
    AND difficulty <> 'Unknown'
), same_question AS (
  -- several spider2-lite instances may ask the same question: the one with
  -- the same id (or the id without the sf_ prefix) first, then the lowest id
  SELECT t.instance_id, l.lite_id, lg.difficulty,
         row_number() OVER (PARTITION BY t.instance_id
                            ORDER BY l.lite_id = t.instance_id DESC,
                                     l.lite_id = substr(t.instance_id, 4) DESC,
                                     l.lite_id) AS k
  FROM task AS t JOIN lite AS l ON l.question = t.question
  JOIN lite_gold AS lg ON lg.lite_id = l.lite_id
)
SELECT g.instance_id,
       CASE WHEN g.difficulty <> 'Unknown' THEN g.difficulty
            ELSE coalesce(q.difficulty, 'Unknown') END AS difficulty,
       CASE WHEN g.toks IS NOT NULL THEN 'toks of the eval jsonl'
            WHEN g.sql_tokens IS NOT NULL THEN 'tokens of the gold SQL'
            WHEN q.difficulty IS NOT NULL THEN 'spider2-lite, same question'
            ELSE 'none: no gold SQL, no toks' ||
                 CASE WHEN :lite_gold IS NULL OR :lite_tasks IS NULL OR :tasks IS NULL
                      THEN '' ELSE ', no spider2-lite question' END END AS source,
       q.lite_id,
       (SELECT question FROM task AS t WHERE t.instance_id = g.instance_id) AS question
FROM gold AS g LEFT JOIN same_question AS q ON q.instance_id = g.instance_id AND q.k = 1;

-- verdicts already judged by a script read before this one (report_html.sql
-- sets :reuse_verdicts), else judged afresh: each verdict once, kept by
-- sql/verdict_memo.sql (shared with errors.sql and compare.sql): run from
-- the repository root, or build/sql/report.sql (its parts inlined) from
-- anywhere
SELECT spidereval_error('report.sql: cannot read sql/verdict_memo.sql from the working directory: run it from the repository root, or run build/sql/report.sql (its parts inlined) from anywhere') WHERE readfile('sql/verdict_memo.sql') IS NULL; -- repository only
.read sql/verdict_memo.sql
INSERT OR IGNORE INTO temp.spider_verdict_memo
SELECT s.path, o.gold, s.instance_id, o.options, progress(spider_verdict(s.path, :gold, s.instance_id, o.options), 'report', coalesce(:progress, 0))
FROM temp.verdict_options AS o, submission_files(:submission) AS s
WHERE s.instance_id IN (SELECT instance_id FROM temp.report_difficulty)
  AND NOT EXISTS (SELECT 1 FROM temp.spider_verdicts AS m
                  WHERE m.path = s.path AND m.instance_id = s.instance_id);
DROP TABLE IF EXISTS temp.report_verdicts;
CREATE TEMP TABLE report_verdicts AS
WITH judged AS MATERIALIZED (
  SELECT s.instance_id, d.difficulty, d.source, d.question,
         (SELECT m.v FROM temp.spider_verdicts AS m WHERE m.path = s.path AND m.instance_id = s.instance_id) AS v
  FROM submission_files(:submission) AS s
  JOIN temp.report_difficulty AS d ON d.instance_id = s.instance_id
)
SELECT instance_id, difficulty, source AS difficulty_source,
       v ->> 'score' AS score,
       v ->> 'error_info' AS error_info,
       CASE
         WHEN v ->> 'score' = 1 THEN 'Correct'
         WHEN v ->> 'error_info' LIKE 'Result Error%' THEN 'Result Error'
         WHEN v ->> 'error_info' LIKE 'No matching gold file found%'
           THEN 'No matching gold file found'
         ELSE substr(v ->> 'error_info', 1,
                     instr(v ->> 'error_info', ':') +
                     instr(substr(v ->> 'error_info', instr(v ->> 'error_info', ':') + 1), ':') - 1)
       END AS category,
       CASE WHEN v ->> 'score' = 1 THEN v ->> 'variant' END AS variant,
       question
FROM judged;

DROP TABLE IF EXISTS temp.report_missing;
CREATE TEMP TABLE report_missing AS
SELECT instance_id, difficulty FROM temp.report_difficulty
WHERE instance_id NOT IN (SELECT instance_id FROM temp.report_verdicts);

.mode list
.headers off
SELECT printf('Spider 2.0 evaluation (%s rules, pandas %s%s)', coalesce(:flavor, 'snow'),
              pandas_generation(coalesce(:options, '') || coalesce(' pandas=' || :pandas, '')),
              CASE WHEN coalesce(:options, '') <> '' THEN ', options: ' || :options ELSE '' END);
SELECT printf('submission: %s', :submission);
SELECT printf('gold:       %s', :gold);
SELECT printf('tasks:      %s', :tasks) WHERE :tasks IS NOT NULL;
SELECT printf('lite tasks: %s (gold %s)', :lite_tasks, :lite_gold)
WHERE :lite_tasks IS NOT NULL AND :lite_gold IS NOT NULL;
SELECT '';
WITH t AS (SELECT count(*) AS n, coalesce(sum(score), 0) AS ok FROM report_verdicts),
     g AS (SELECT count(*) AS total FROM temp.report_difficulty),
     e AS (SELECT count(*) AS total FROM gold_instances(:gold)
           WHERE in_eval AND instance_id NOT IN
             (SELECT instance_id FROM temp.spider2e_excluded)),
     te AS (SELECT count(*) AS n, coalesce(sum(score), 0) AS ok
            FROM report_verdicts WHERE instance_id NOT IN
              (SELECT instance_id FROM temp.spider2e_excluded))
SELECT printf('%-30s %d / %d', 'correct / evaluated:', t.ok, t.n) || char(10) ||
       printf('%-30s %.4f', 'score over evaluated:', CASE WHEN t.n > 0 THEN 1.0 * t.ok / t.n ELSE 0 END) || char(10) ||
       printf('%-30s %.4f', printf('score over all %d in eval:', g.total),
              CASE WHEN g.total > 0 THEN 1.0 * t.ok / g.total ELSE 0 END) ||
       -- Spider2-E is a subset of spider2-snow: no such line for lite or dbt
       CASE WHEN coalesce(:flavor, 'snow') <> 'snow' THEN ''
            WHEN coalesce(:instances, 'all') = 'spider2e'
         THEN char(10) || printf('(Spider2-E set: %d of the eval jsonl''s instances)', e.total)
         ELSE char(10) || printf('%-30s %d / %d evaluated, %.4f over its %d', 'Spider2-E set:',
                                 te.ok, te.n, CASE WHEN e.total > 0 THEN 1.0 * te.ok / e.total ELSE 0 END, e.total)
       END || char(10) ||
       printf('%-30s %d of the %d in eval', 'not submitted:', g.total - t.n, g.total)
FROM t, g, e, te;
SELECT '';
SELECT 'Where the difficulties come from (all instances in eval)';
.mode box
.headers on
SELECT source, count(*) AS instances,
       sum(instance_id IN (SELECT instance_id FROM report_verdicts)) AS evaluated
FROM temp.report_difficulty GROUP BY source
ORDER BY source LIKE 'none%', count(*) DESC;
.mode list
.headers off
SELECT CASE WHEN :cli IS NOT NULL
  THEN 'Instances without a difficulty can take the one of the spider2-lite instance with the same question: give --tasks, --lite_tasks and --lite_gold (the notes on stderr say where they were looked for).'
  ELSE 'Instances without a difficulty can take the one of the spider2-lite instance with the same question: set :tasks, :lite_tasks and :lite_gold.'
  END
WHERE EXISTS (SELECT 1 FROM temp.report_difficulty WHERE difficulty = 'Unknown')
  AND (:tasks IS NULL OR :lite_tasks IS NULL OR :lite_gold IS NULL);
SELECT '';
SELECT 'Score by difficulty (evaluated instances)';
.mode box
.headers on
SELECT difficulty, count(*) AS evaluated, sum(score) AS correct,
       printf('%.4f', 1.0 * sum(score) / count(*)) AS score
FROM report_verdicts
GROUP BY difficulty
ORDER BY CASE difficulty WHEN 'Easy' THEN 1 WHEN 'Medium' THEN 2
                         WHEN 'Hard' THEN 3 ELSE 4 END;
.mode list
.headers off
SELECT '';
SELECT 'Instances by outcome (official error_info category, three examples each)';
.mode box
.headers on
SELECT category, count(*) AS instances,
       (SELECT group_concat(instance_id, ' ') FROM
          (SELECT instance_id FROM report_verdicts r2
           WHERE r2.category = r.category ORDER BY instance_id LIMIT 3)) AS examples
FROM report_verdicts r
GROUP BY category
ORDER BY category = 'Correct' DESC, count(*) DESC, category;
.mode list
.headers off
SELECT '';
SELECT printf('Failures (%s)', listing_note(:limit, count(*), :cli))
FROM report_verdicts WHERE score = 0;
.mode box --wrap 72 --wordwrap on
.headers on
SELECT visible_text(instance_id) AS instance_id, difficulty, visible_text(error_info) AS error_info
FROM report_verdicts WHERE score = 0
ORDER BY instance_id LIMIT listing_limit(:limit);
.mode list
.headers off
SELECT '';
SELECT printf('Not submitted (%s): in the eval jsonl, no file in the submission', listing_note(:limit, count(*), :cli))
FROM report_missing;
SELECT group_concat(instance_id, ' ') FROM (
  SELECT instance_id FROM report_missing ORDER BY instance_id
  LIMIT listing_limit(:limit))
HAVING count(*) > 0;
SELECT '';
SELECT CASE WHEN :cli IS NOT NULL
  THEN 'Next: spidereval errors ' || :cli || ' says why the failures fail; spidereval report ' || :cli || ' --html report.html writes this report as a page to browse; spidereval compare RUN_A RUN_B --gold_dir ... compares runs.'
  ELSE 'Next: sql/errors.sql (same parameters) says why the failures fail; sql/report_html.sql writes this report as a page to browse; sql/compare.sql compares two runs.' END;
