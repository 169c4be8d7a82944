-- a misspelt :flavor stops report.sql before it prints anything
.load build/spidereval
.parameter set :submission 'samples/submission'
.parameter set :gold 'samples/gold'
.parameter set :flavor 'Lite'
.read sql/report.sql
