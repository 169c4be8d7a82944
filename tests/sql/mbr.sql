-- Selection from a CSV list of candidates. The paper's MBR (columns by
-- name, its main text's denominator, floats as they are): the two
-- candidates that agree by name win (candidate 1); the one whose result is
-- the union of the others is picked; a failed candidate is similar to
-- nothing.
.load build/spidereval
.parameter set :candidates 'tests/fixtures/mbr/candidates.csv'
.parameter set :method 'mbr'
.parameter set :columns 'name'
.parameter set :options ''
.parameter set :decimals 'none'
.read sql/mbr.sql
-- columns aligned by content: all three 'ties' candidates are equivalent
.parameter set :options 'aligned'
.read sql/mbr.sql
.parameter unset :options
.parameter set :columns 'aligned'
.parameter set :decimals 2
.read sql/mbr.sql
-- the defaults: the equivalence-cluster vote (all three 'ties' candidates
-- in one cluster; in 'union' no two agree, MBR breaks the tie)
.parameter unset :method
.parameter unset :columns
.parameter unset :decimals
.read sql/mbr.sql
