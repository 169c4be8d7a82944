-- MBR selection: equivalent candidates tie and the first wins; the one
-- whose result is the union of the others is picked; a failed candidate is
-- similar to nothing.
.load build/spidereval
.parameter set :candidates 'tests/fixtures/mbr/candidates.csv'
.read sql/mbr.sql
.parameter set :options 'aligned'
.read sql/mbr.sql
-- the same with the :columns and :decimals parameters
.parameter unset :options
.parameter set :columns 'aligned'
.parameter set :decimals 2
.read sql/mbr.sql
