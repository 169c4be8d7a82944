-- :limit in the scripts' listings (report.sql's failures and unsubmitted
-- instances, report_peer.sql's failures, compare.sql's gained, lost and
-- disagreeing instances from compare_stats.sql): unset (50, more than any
-- list here), 0 and -1 (all), 1, and the length of report.sql's failure
-- list (2: all, the note says "all 2")
.load build/spidereval
.parameter set :submission 'samples/submission'
.parameter set :gold 'samples/gold'
.print == report.sql, :limit unset
.read sql/report.sql
.print == report.sql, :limit 0
.parameter set :limit 0
.read sql/report.sql
.print == report.sql, :limit -1
.parameter set :limit -1
.read sql/report.sql
.print == report.sql, :limit 2
.parameter set :limit 2
.read sql/report.sql
.print == report.sql, :limit 1
.parameter set :limit 1
.read sql/report.sql
.parameter unset :submission
.parameter unset :gold
.parameter unset :limit
.parameter set :databases 'build/samples/peers_dev'
.parameter set :predictions 'samples/peers/predict_b.json'
.parameter set :dev 'samples/peers/dev.json'
.print == report_peer.sql, :limit unset
.read sql/report_peer.sql
.print == report_peer.sql, :limit 0
.parameter set :limit 0
.read sql/report_peer.sql
.print == report_peer.sql, :limit 2
.parameter set :limit 2
.read sql/report_peer.sql
.parameter unset :databases
.parameter unset :predictions
.parameter unset :dev
.parameter unset :limit
.parameter set :gold 'samples/gold'
.parameter set :runs '["samples/submission", "tests/fixtures/compare/all_right"]'
.print == compare.sql, :limit 0
.parameter set :limit 0
.read sql/compare.sql
.print == compare.sql, :limit -1
.parameter set :limit -1
.read sql/compare.sql
.print == compare.sql, :limit 2
.parameter set :limit 2
.read sql/compare.sql
